import "@testing-library/jest-dom/vitest";

// jsdom has no layout and no screen: the table's scrolls have nothing to do, and no player asked
// for less motion.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;
window.matchMedia = (query: string) => ({ matches: false, media: query }) as MediaQueryList;
