import { imageUrl } from "../config.ts";

/** Steam's rarity colours, by the catalog's rarity tag. */
const RARITY_COLOURS: Record<string, string> = {
  common_weapon: "#b0c3d9",
  common: "#b0c3d9",
  uncommon_weapon: "#5e98d9",
  rare_weapon: "#4b69ff",
  rare: "#4b69ff",
  rare_character: "#4b69ff",
  mythical_weapon: "#8847ff",
  mythical: "#8847ff",
  mythical_character: "#8847ff",
  legendary_weapon: "#d32ce6",
  legendary: "#d32ce6",
  legendary_character: "#d32ce6",
  ancient_weapon: "#eb4b4b",
  ancient: "#eb4b4b",
  ancient_character: "#eb4b4b",
  contraband: "#e4ae39",
};

export function rarityColour(rarity: string | undefined): string {
  return (rarity && RARITY_COLOURS[rarity]) || "#8a94a6";
}

/**
 * The item's picture where images can be reached (`IMAGE_BASE_URL`), otherwise a placeholder in
 * its rarity's colour with its weapon and skin name, since the service may have no internet.
 */
export function ItemImage(props: {
  iconUrl?: string;
  name: string;
  rarity?: string;
  size?: "small" | "large";
}) {
  const colour = rarityColour(props.rarity);
  const url = imageUrl(props.iconUrl);
  const className = `item-image ${props.size ?? "small"}`;
  if (url) {
    return (
      <img
        class={className}
        src={url}
        alt={props.name}
        loading="lazy"
        width={props.size === "large" ? 256 : 128}
        height={props.size === "large" ? 192 : 96}
        style={{ borderColor: colour }}
      />
    );
  }
  const [weapon, skin] = props.name.replace(/\s*\([^)]*\)\s*$/, "").split(" | ");
  return (
    <div class={className} role="img" aria-label={props.name} style={{ borderColor: colour }}>
      <span class="stripe" style={{ background: colour }} />
      <span class="weapon">{weapon}</span>
      {skin ? <span class="skin">{skin}</span> : null}
    </div>
  );
}
