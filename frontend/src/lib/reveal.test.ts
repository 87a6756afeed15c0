import { afterEach, describe, expect, it, vi } from "vitest";
import { reveal } from "./reveal";

/** A table with a bar of `top` px stuck to the top, a target, and a hand of `bottom` px below. */
function table(top: number, bottom: number, position = "sticky"): HTMLElement {
  document.body.innerHTML = `<section class="table"><div class="table-head"></div><div id="target"></div>
    <div class="me-area"></div></section>`;
  const bar = (selector: string, height: number) => {
    const el = document.querySelector<HTMLElement>(selector)!;
    el.style.position = position;
    el.getBoundingClientRect = () => ({ height }) as DOMRect;
  };
  bar(".table-head", top);
  bar(".me-area", bottom);
  return document.getElementById("target")!;
}

describe("revealing part of the table", () => {
  afterEach(() => vi.restoreAllMocks());

  it("scrolls it smoothly into view, clear of the bars stuck to the window's edges", () => {
    const target = table(50, 200);
    const scroll = vi.spyOn(target, "scrollIntoView");
    reveal(target);
    expect(scroll).toHaveBeenCalledWith({ block: "nearest", behavior: "smooth" });
    expect(target.style.scrollMarginTop).toBe("62px");
    expect(target.style.scrollMarginBottom).toBe("212px");
  });

  it("leaves room for no bar once they no longer stick (the game is over)", () => {
    const target = table(50, 200, "static");
    reveal(target, "center");
    expect(target.style.scrollMarginTop).toBe("0px");
    expect(target.style.scrollMarginBottom).toBe("0px");
  });

  it("jumps without a slide for a player who asked for less motion", () => {
    vi.spyOn(window, "matchMedia").mockReturnValue({ matches: true } as MediaQueryList);
    const target = table(50, 200);
    const scroll = vi.spyOn(target, "scrollIntoView");
    reveal(target);
    expect(scroll).toHaveBeenCalledWith({ block: "nearest", behavior: "auto" });
  });
});
