import { useEffect, useState } from "preact/hooks";
import { useSuggestions } from "../../components/use-suggestions.ts";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { navigate } from "../../router.ts";

/** The search field with suggestions and their lowest prices as one types (`search/suggest`, anyone), an ARIA combobox. */
export function SearchBox(props: { initial: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(props.initial);
  const { suggestions, setSuggestions, active, setActive, suggest } = useSuggestions();

  useEffect(() => setText(props.initial), [props.initial]);

  return (
    <form
      role="search"
      class="search"
      onSubmit={(event) => {
        event.preventDefault();
        const chosen = suggestions[active];
        setSuggestions([]);
        if (chosen) navigate(`/goods/${chosen.goods_ids}`);
        else props.onSearch(text.trim());
      }}
    >
      <input
        type="search"
        role="combobox"
        list={undefined}
        aria-label={t("Search the market")}
        aria-expanded={suggestions.length > 0}
        aria-controls="suggestions"
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `suggestion-${active}` : undefined}
        placeholder={t("Search by name, in English or Chinese")}
        value={text}
        autocomplete="off"
        onInput={(event) => {
          setText(event.currentTarget.value);
          suggest(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") setActive((index) => Math.min(index + 1, suggestions.length - 1));
          else if (event.key === "ArrowUp") setActive((index) => Math.max(index - 1, -1));
          else if (event.key === "Escape") setSuggestions([]);
          else return;
          event.preventDefault();
        }}
      />
      <button type="submit">{t("Search")}</button>
      {suggestions.length > 0 ? (
        <ul id="suggestions" role="listbox" aria-label={t("Suggestions")} class="suggestions">
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.goods_ids}
              id={`suggestion-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                setSuggestions([]);
                navigate(`/goods/${suggestion.goods_ids}`);
              }}
            >
              <span class="name">{suggestion.option}</span>
              <span class="price">
                {suggestion.sell_num > 0 ? money(suggestion.sell_min_price) : t("No listings")}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
