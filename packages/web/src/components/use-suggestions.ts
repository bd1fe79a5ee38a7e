import type { searchSuggest } from "@skinmarket/contract";
import { useRef, useState } from "preact/hooks";
import { web, type WebData } from "../api.ts";

export type Suggestion = WebData<typeof searchSuggest>["suggestions"][number];

/**
 * The catalog's suggestions for a text being typed (`search/suggest`, anyone), asked 150 ms after
 * the last key, and the one the arrow keys made active: the state of every goods combobox.
 */
export function useSuggestions() {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const timer = useRef<number | undefined>(undefined);
  const suggest = (value: string) => {
    window.clearTimeout(timer.current);
    if (!value.trim()) return setSuggestions([]);
    timer.current = window.setTimeout(() => {
      web<typeof searchSuggest>("GET", "/api/market/search/suggest", { query: { game: "csgo", text: value } })
        .then((answer) => {
          setSuggestions(answer.suggestions);
          setActive(-1);
        })
        .catch(() => setSuggestions([]));
    }, 150);
  };
  return { suggestions, setSuggestions, active, setActive, suggest };
}
