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
});
