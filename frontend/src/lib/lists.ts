/** Words in a sentence's list: "a", "a or b", "a, b or c" (`last`: "or", or "and"). */
export function listed(words: string[], last: "or" | "and"): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}`;
}
