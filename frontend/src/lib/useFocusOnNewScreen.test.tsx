import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useFocusOnNewScreen } from "./useFocusOnNewScreen";

/** A screen per title (each its own heading element, as each of the app's screens has). */
function Page({ title, field = false }: { title: string | null; field?: boolean }) {
  useFocusOnNewScreen();
  return (
    <>
      <header><a href="/rules">Rules</a></header>
      <main>{title === null ? <p>Joining…</p> : <h1 key={title}>{title}</h1>}{field && <input aria-label="Name" />}</main>
    </>
  );
}

describe("useFocusOnNewScreen", () => {
  it("leaves the first screen's focus alone, then takes a new screen's heading from the top bar or nowhere", async () => {
    const { rerender } = render(<Page title="Pull up a chair." />);
    expect(document.activeElement).toBe(document.body);
    screen.getByRole("link", { name: "Rules" }).focus();
    rerender(<Page title="Rules" />);
    await waitFor(() => expect(screen.getByRole("heading", { name: "Rules" })).toHaveFocus());
    rerender(<Page title={null} />); // "Joining…": no heading yet, focus on the page
    rerender(<Page title="Nine Locks" />);
    await waitFor(() => expect(screen.getByRole("heading", { name: "Nine Locks" })).toHaveFocus());
  });

  it("does not take focus from a control on the page", async () => {
    const { rerender } = render(<Page title="One" field />);
    screen.getByRole("textbox", { name: "Name" }).focus();
    rerender(<Page title="Two" field />);
    await new Promise((done) => setTimeout(done, 0));
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveFocus();
  });
});
