import { useState } from "preact/hooks";
import { useSuggestions, type Suggestion } from "../../components/use-suggestions.ts";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";

/**
 * A goods chosen by name, in English or Chinese, from the site's suggestions (`search/suggest`, the
 * catalog search box's forgiving search): an editable combobox with a list popup after the ARIA 1.2
 * pattern (docs/design/website-console.md#the-console). Down and Up move through the options (the input keeps
 * focus; `aria-activedescendant` names the active one), Enter or a click chooses, Escape closes the
 * list. Typing again forgets the choice.
 */
export function GoodsCombobox(props: {
  id: string;
  label: string;
  chosen: Suggestion | undefined;
  onChoose: (suggestion: Suggestion | undefined) => void;
}) {
  const [text, setText] = useState("");
  const { suggestions, setSuggestions, active, setActive, suggest } = useSuggestions();
  const listbox = `${props.id}-listbox`;
  const open = suggestions.length > 0;

  const choose = (suggestion: Suggestion) => {
    setText(suggestion.option);
    setSuggestions([]);
    setActive(-1);
    props.onChoose(suggestion);
  };

  return (
    <div class="combobox">
      <label for={props.id}>{props.label}</label>
      <div class="combobox-field">
        <input
          id={props.id}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listbox}
          aria-autocomplete="list"
          aria-activedescendant={open && active >= 0 ? `${props.id}-option-${active}` : undefined}
          autocomplete="off"
          spellcheck={false}
          size={30}
          placeholder={t("Name, in English or Chinese")}
          value={text}
          onInput={(event) => {
            setText(event.currentTarget.value);
            props.onChoose(undefined);
            suggest(event.currentTarget.value);
          }}
          onBlur={() => setSuggestions([])}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown" && open)
              setActive((index) => Math.min(index + 1, suggestions.length - 1));
            else if (event.key === "ArrowDown") suggest(text);
            else if (event.key === "ArrowUp" && open) setActive((index) => Math.max(index - 1, 0));
            else if (event.key === "Escape" && open) setSuggestions([]);
            else if (event.key === "Enter" && open && active >= 0) choose(suggestions[active]!);
            else return;
            event.preventDefault();
          }}
        />
        <ul id={listbox} role="listbox" aria-label={t("Suggestions")} class="suggestions" hidden={!open}>
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.goods_ids}
              id={`${props.id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(suggestion);
              }}
            >
              <span class="name">{suggestion.option}</span>
              <span class="price">
                {suggestion.sell_num > 0 ? money(suggestion.sell_min_price) : t("No listings")}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p class="muted small" aria-live="polite">
        {props.chosen
          ? t("Chosen: {n} (goods {g}).", { n: props.chosen.option, g: props.chosen.goods_ids })
          : ""}
      </p>
    </div>
  );
}
