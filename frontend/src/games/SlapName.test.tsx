import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SlapName, telling } from "./SlapName";

describe("a hot-seat slap button's name", () => {
  it("keeps the part that tells two alike names apart when cut short", () => {
    const ada = "Wolfeschlegelsteinhausenbergerdo";
    const other = "Wolfeschlegelsteinhausenbergerxy";
    expect(telling(ada, [other])).toBe("Wol…do");
    expect(telling(other, [ada, "Grace"])).toBe("Wol…xy");
    expect(telling("Player one", ["Player two"])).toBe("Pla…one");
  });

  it("leaves a name that starts unlike the others as it is", () => {
    expect(telling("Wolfeschlegelsteinhausenbergerdo", ["Grace"])).toBe("Wolfeschlegelsteinhausenbergerdo");
    expect(telling("Adam", ["Adamant"])).toBe("Adam");
  });

  it("is read out whole", () => {
    render(<button type="button">SLAP! <SlapName name="Linus" others={["Ada"]} /></button>);
    expect(screen.getByRole("button", { name: "SLAP! Linus" })).toBeInTheDocument();
  });
});
