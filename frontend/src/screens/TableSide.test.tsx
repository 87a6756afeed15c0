import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { room } from "../lib/fixtures";
import { LeaveTable } from "./TableSide";

describe("leaving mid-game", () => {
  it("asks first; Escape or 'Stay at the table' keeps the seat and puts focus back on Leave", () => {
    const onLeave = vi.fn();
    render(<LeaveTable room={room({ status: "playing" })} isHost={false} playing onLeave={onLeave} />);
    const leave = screen.getByRole("button", { name: "Leave" });
    fireEvent.click(leave);
    const dialog = screen.getByRole("alertdialog", { name: "Leave this game?" });
    expect(screen.getByRole("button", { name: "Stay at the table" })).toHaveFocus();
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(leave).toHaveFocus();
    fireEvent.click(leave);
    fireEvent.click(screen.getByRole("button", { name: "Stay at the table" }));
    expect(leave).toHaveFocus();
    expect(onLeave).not.toHaveBeenCalled();
  });

  it("keeps Tab and Shift+Tab inside the question while it is open", () => {
    render(<><LeaveTable room={room({ status: "playing" })} isHost={false} playing onLeave={vi.fn()} />
      <button type="button">Under it</button></>);
    fireEvent.click(screen.getByRole("button", { name: "Leave" }));
    const dialog = screen.getByRole("alertdialog", { name: "Leave this game?" });
    const stay = screen.getByRole("button", { name: "Stay at the table" });
    const [leave] = [...dialog.querySelectorAll("button")].slice(-1);
    expect(stay).toHaveFocus();
    fireEvent.keyDown(stay, { key: "Tab", shiftKey: true });
    expect(leave).toHaveFocus();
    fireEvent.keyDown(leave, { key: "Tab" });
    expect(stay).toHaveFocus();
    // Focus put elsewhere (a click on the page) comes back into the question with the next Tab.
    screen.getByRole("button", { name: "Under it" }).focus();
    fireEvent.keyDown(document.activeElement as Element, { key: "Tab" });
    expect(stay).toHaveFocus();
  });
});
