import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { seat } from "../lib/fixtures";
import type { LegalMove } from "../lib/types";
import { ChoiceBox, MyHand, useCardPicker } from "./HandPicker";
import type { BoardProps } from "./types";

const seats = [seat(0, "Ada"), seat(1, "Grace")];
const legal: LegalMove[] = [{ move: "play", args: ["8C", "S"] }, { move: "play", args: ["8C", "H"] }, { move: "play", args: ["7H"] }];

function Hand({ version, play, stay = false }: { version: number; play: BoardProps["play"]; stay?: boolean }) {
  const picker = useCardPicker(legal, play, version);
  return (
    <MyHand seat={0} seats={seats} owner={null} isTurn hand={["8C", "7H", "KS"]} count={3} hidden={false}
      picker={picker} canAct hint="" cardsStayButtons={stay}
      chooser={(card, moves) => (
        <ChoiceBox label={`Choices for ${card}`} question="Which?" moves={moves}
          choice={(m) => ({ text: String(m.args[1]) })} onPick={(m) => void play(m.move, m.args)} onCancel={picker.cancel} />
      )} />
  );
}

describe("a hand whose cards may ask for a choice", () => {
  it("plays a card with one plain move at once, and opens the choices of any other", () => {
    const play = vi.fn();
    render(<Hand version={1} play={play} />);
    fireEvent.click(screen.getByRole("button", { name: "7 of hearts" }));
    expect(play).toHaveBeenCalledWith("play", ["7H"]);
    fireEvent.click(screen.getByRole("button", { name: "8 of clubs" }));
    expect(screen.getByRole("button", { name: "8 of clubs" })).toHaveAttribute("aria-pressed", "true");
    const choices = screen.getByRole("group", { name: "Choices for 8C" });
    expect(choices).toHaveTextContent("SHCancel");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("group", { name: "Choices for 8C" })).toBeNull();
  });

  it("takes a keyboard player to the first choice with the question, and back to the card on Escape", () => {
    render(<Hand version={1} play={vi.fn()} />);
    const eight = screen.getByRole("button", { name: "8 of clubs" });
    eight.focus();
    fireEvent.click(eight);
    const first = screen.getByRole("button", { name: "S" });
    expect(first).toHaveFocus();
    expect(screen.getByRole("group", { name: "Choices for 8C" })).toHaveAccessibleDescription("Which?");
    fireEvent.keyDown(first, { key: "Escape" });
    expect(screen.queryByRole("group", { name: "Choices for 8C" })).toBeNull();
    expect(screen.getByRole("button", { name: "8 of clubs" })).toHaveFocus();
  });

  it("closes the choices when the card is pressed again, or when the game moves on", () => {
    const { rerender } = render(<Hand version={1} play={vi.fn()} />);
    const eight = screen.getByRole("button", { name: "8 of clubs" });
    fireEvent.click(eight);
    fireEvent.click(eight);
    expect(screen.queryByRole("group", { name: "Choices for 8C" })).toBeNull();
    fireEvent.click(eight);
    rerender(<Hand version={2} play={vi.fn()} />);
    expect(screen.queryByRole("group", { name: "Choices for 8C" })).toBeNull();
  });

  it("shows a card that cannot be played as a picture, or as a disabled button when asked", () => {
    const { unmount } = render(<Hand version={1} play={vi.fn()} />);
    expect(screen.getByRole("img", { name: "king of spades" })).toBeInTheDocument();
    unmount();
    render(<Hand version={1} play={vi.fn()} stay />);
    expect(screen.getByRole("button", { name: "king of spades" })).toBeDisabled();
  });
});
