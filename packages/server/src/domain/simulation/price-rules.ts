/**
 * The tables behind the demo market's prices (`demo-prices.ts`), in yuan: what a goods of each
 * kind usually fetches on the real market, relative to the others. No npm package ships CS2
 * market prices (only API clients that fetch them at run time), so the levels follow the public
 * markets' usual order: the knife model and its finish, the glove model and its finish, the
 * weapon skin's rarity and whether its collection drops from a case.
 */

/** A vanilla knife of each model (the `weapon` tag), which is near its plain finishes' price. */
export const KNIFE_MODEL: Record<string, number> = {
  weapon_knife_butterfly: 5200,
  weapon_knife_karambit: 4500,
  weapon_knife_m9_bayonet: 3600,
  weapon_knife_skeleton: 3000,
  weapon_knife_widowmaker: 2600,
  weapon_bayonet: 2000,
  weapon_knife_stiletto: 1900,
  weapon_knife_kukri: 1800,
  weapon_knife_flip: 1600,
  weapon_knife_css: 1600,
  weapon_knife_outdoor: 1500,
  weapon_knife_ursus: 1400,
  weapon_knife_tactical: 1300,
  weapon_knife_cord: 1200,
  weapon_knife_falchion: 1150,
  weapon_knife_survival_bowie: 1150,
  weapon_knife_canis: 1100,
  weapon_knife_gut: 1050,
  weapon_knife_push: 1050,
  weapon_knife_gypsy_jackknife: 1000,
};
export const KNIFE_MODEL_DEFAULT = 1500;

/** A knife finish's price relative to the vanilla knife of its model, at Field-Tested. */
export const KNIFE_FINISH: Record<string, number> = {
  Fade: 1.8,
  "Marble Fade": 1.7,
  Lore: 1.6,
  "Gamma Doppler": 1.5,
  Doppler: 1.35,
  "Tiger Tooth": 1.35,
  Slaughter: 1.35,
  "Case Hardened": 1.1,
  "Crimson Web": 1.05,
  Autotronic: 1.05,
  "Blue Steel": 0.9,
  "Damascus Steel": 0.9,
  "Black Laminate": 0.9,
  Freehand: 0.9,
  Ultraviolet: 0.85,
  Stained: 0.85,
  "Bright Water": 0.85,
  Night: 0.8,
  "Night Stripe": 0.8,
  "Rust Coat": 0.75,
  "Urban Masked": 0.72,
  "Boreal Forest": 0.7,
  "Forest DDPAT": 0.7,
  Scorched: 0.68,
  "Safari Mesh": 0.68,
};

/** Finishes whose wear shows most, so that Factory New fetches several times Battle-Scarred. */
export const STEEP_FINISHES = new Set([
  "Lore",
  "Crimson Web",
  "Autotronic",
  "Black Laminate",
  "Freehand",
  "Bright Water",
  "Slaughter",
  "Night",
]);

/** Gloves of each model (the `weapon` tag) in a plain finish at Field-Tested. */
export const GLOVE_MODEL: Record<string, number> = {
  weapon_sporty_gloves: 3200,
  weapon_specialist_gloves: 2600,
  weapon_slick_gloves: 1800,
  weapon_motorcycle_gloves: 1800,
  weapon_leather_handwraps: 1500,
  weapon_studded_bloodhound_gloves: 1500,
  weapon_studded_hydra_gloves: 1300,
  weapon_studded_brokenfang_gloves: 1300,
};
export const GLOVE_MODEL_DEFAULT = 1600;

/** A glove finish's price relative to its model's plain finishes; the rest are plain (1). */
export const GLOVE_FINISH: Record<string, number> = {
  "Pandora's Box": 6,
  "Hedge Maze": 5,
  Vice: 4,
  "Crimson Kimono": 3.5,
  Superconductor: 3,
  Fade: 2.5,
  "Crimson Weave": 2.3,
  Amphibious: 2.2,
  "Emerald Web": 2.2,
  "King Snake": 2.2,
  Omega: 2,
  "Marble Fade": 2,
  Slingshot: 1.8,
  Spearmint: 1.8,
  "Crimson Web": 1.6,
  "Cobalt Skulls": 1.6,
  Slaughter: 1.6,
  "Imperial Plaid": 1.5,
  Emerald: 1.5,
  Polygon: 1.4,
  "Case Hardened": 1.4,
  Foundation: 1.3,
  "Lunar Weave": 1.2,
  Charred: 0.9,
  Badlands: 0.85,
  Guerrilla: 0.8,
  Convoy: 0.8,
  "Spruce DDPAT": 0.75,
  Leather: 0.75,
  Arid: 0.7,
  "Forest DDPAT": 0.7,
};

/** Exterior factors relative to Field-Tested (wearcategory0 Factory New ... 4 Battle-Scarred). */
export const WEAPON_EXTERIOR: Record<string, number> = {
  wearcategory0: 2.2,
  wearcategory1: 1.35,
  wearcategory2: 1,
  wearcategory3: 0.85,
  wearcategory4: 0.75,
};
export const KNIFE_EXTERIOR: Record<string, number> = {
  wearcategory0: 1.55,
  wearcategory1: 1.2,
  wearcategory2: 1,
  wearcategory3: 0.91,
  wearcategory4: 0.83,
};
export const GLOVE_EXTERIOR: Record<string, number> = {
  wearcategory0: 3.5,
  wearcategory1: 1.8,
  wearcategory2: 1,
  wearcategory3: 0.82,
  wearcategory4: 0.72,
};

/** A weapon skin at Field-Tested by rarity, when its collection drops from a case. */
export const WEAPON_RARITY: Record<string, number> = {
  common_weapon: 0.6,
  uncommon_weapon: 1.5,
  rare_weapon: 4,
  mythical_weapon: 15,
  legendary_weapon: 60,
  ancient_weapon: 250,
  contraband: 20000,
};
/**
 * A collection no case drops (map collections from souvenir packages, operation and drop
 * collections) is rarer: its high grades fetch several times a case's, its low grades no more.
 */
export const CASELESS_COLLECTION: Record<string, number> = {
  common_weapon: 0.8,
  uncommon_weapon: 1,
  rare_weapon: 1.6,
  mythical_weapon: 3,
  legendary_weapon: 6,
  ancient_weapon: 14,
};

export const STICKER_RARITY: Record<string, number> = {
  common: 0.3,
  rare: 0.6,
  mythical: 3,
  legendary: 14,
  ancient: 70,
  contraband: 4000,
};
/** Stickers of the early tournaments are scarce: by the year that starts the series' name. */
export const STICKER_YEAR: Record<string, number> = {
  "2013": 25,
  "2014": 20,
  "2015": 5,
  "2016": 2,
  "2017": 2,
};

export const AGENT_RARITY: Record<string, number> = {
  rare_character: 6,
  mythical_character: 18,
  legendary_character: 45,
  ancient_character: 120,
};
export const TYPE_BASE: Record<string, number> = {
  container: 2.5,
  key: 16,
  tool: 12,
  music_kit: 25,
  collectible: 45,
  charm: 8,
  graffiti: 0.5,
  patch: 4,
};

/** StatTrak™ and souvenir weapons, StatTrak™ knives, by the goods' quality. */
export const QUALITY_FACTOR: Record<string, number> = {
  stattrak: 2.6,
  souvenir: 3.2,
  unusual_stattrak: 1.35,
};

/** Doppler phases: the gems fetch several times a plain phase. */
export const PHASE_FACTOR: Record<string, number> = {
  ruby: 5,
  sapphire: 6,
  black_pearl: 3.5,
  emerald: 7,
  phase_1: 0.95,
  phase_2: 1.15,
  phase_3: 0.9,
  phase_4: 1.05,
};

/** The least a knife or gloves fetches, in yuan: the cheapest real ones trade near it. */
export const KNIFE_AND_GLOVES_FLOOR = 700;
