/** The account's sections: the path under `/me/` and the name its link and `<title>` show. */
export const ACCOUNT_SECTIONS = [
  ["inventory", "Inventory"],
  ["listings", "My listings"],
  ["purchases", "Purchases"],
  ["sales", "Sales"],
  ["buy-orders", "Buy orders"],
  ["wallet", "Wallet"],
  ["bookmarks", "Bookmarks"],
  ["security", "Sign-ins and closing"],
] as const;
