import "@testing-library/jest-dom/vitest";

// jsdom has no layout: the table's scroll to its top when a game opens has nothing to do.
window.scrollTo = () => undefined;
