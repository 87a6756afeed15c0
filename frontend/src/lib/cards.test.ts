import { describe, expect, it } from "vitest";
import { capitalised, cardCount, cardName, highlightedCards, isCard, nameCardsIn, parseCard, suitOf } from "./cards";

describe("cards", () => {
  it("names cards the way people say them", () => {
    expect(cardName("9H")).toBe("9 of hearts");
    expect(cardName("10C")).toBe("10 of clubs");
    expect(cardName("AS")).toBe("ace of spades");
    expect(cardName("QD")).toBe("queen of diamonds");
    expect(cardName("JC")).toBe("jack of clubs");
    expect(cardName("KH")).toBe("king of hearts");
    expect(parseCard("QS")?.name).toBe("queen of spades");
  });

  it("knows the colours", () => {
    expect(parseCard("KD")?.red).toBe(true);
    expect(parseCard("KS")?.red).toBe(false);
  });

  it("refuses what is not a card", () => {
    for (const bad of ["", "1H", "11S", "XH", "9X", null, 9, "<b>"]) {
      expect(isCard(bad)).toBe(false);
    }
    expect(cardName("zz")).toBe("zz");
  });

  it("names the cards inside a sentence from the server", () => {
    expect(nameCardsIn("The 9H cannot go on 10C")).toBe("The 9 of hearts cannot go on 10 of clubs");
    expect(nameCardsIn("Pile 4 is locked")).toBe("Pile 4 is locked");
    expect(nameCardsIn("QS is not in your hand, KH is")).toBe("Queen of spades is not in your hand, king of hearts is");
  });

  it("capitalises words that start a sentence", () => {
    expect(capitalised(cardName("QH"))).toBe("Queen of hearts");
    expect(capitalised("hearts")).toBe("Hearts");
    expect(capitalised("")).toBe("");
  });

  it("counts cards", () => {
    expect([0, 1, 2].map(cardCount)).toEqual(["0 cards", "1 card", "2 cards"]);
  });

  it("knows a suit by its letter, and nothing else", () => {
    expect(suitOf("H")).toEqual({ name: "hearts", symbol: "♥", red: true });
    expect(suitOf("C")?.name).toBe("clubs");
    for (const bad of ["X", "h", "toString", "", null, 3]) expect(suitOf(bad)).toBeNull();
  });
});

describe("highlightedCards", () => {
  it("names up to three cards, and counts more", () => {
    expect(highlightedCards(["4H"])).toBe("the 4 of hearts (highlighted)");
    expect(highlightedCards(["4H", "QS", "10C"])).toBe("the 4 of hearts, the queen of spades or the 10 of clubs (highlighted)");
    expect(highlightedCards(["4H", "QS", "10C", "2D"])).toBe("one of the 4 highlighted cards");
  });
});
