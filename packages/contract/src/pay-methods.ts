/**
 * The website's numeric `pay_method` codes (docs/design/website-buying-routes.md#the-websites-buying-routes). Real tools of the real service send and read its codes: 3 pays from the
 * marketplace balance (BuffApi's `buff-alipay`, the Alipay side of the real balance) and 1 is the
 * bank card (BuffApi's `buff-bankcard`); in a buy-order book they read 1 as WeChat, 3 as Alipay
 * and 43 as both. Our accounts without a real counterpart take codes no tool knows (101, 102), so
 * no tool can take them for a real channel.
 */
export const WEB_PAY_METHOD_CODES = {
  balance: 3,
  bankcard: 1,
  margin: 101,
  wallet: 102,
} as const;

export type WebPayAccount = keyof typeof WEB_PAY_METHOD_CODES;
export type WebPayMethodCode = (typeof WEB_PAY_METHOD_CODES)[WebPayAccount];

/** The Chinese names the website gives each way of paying. */
export const WEB_PAY_METHOD_TEXTS: Readonly<Record<WebPayAccount, string>> = {
  balance: "余额",
  bankcard: "银行卡",
  margin: "保证金",
  wallet: "钱包",
};

/** The account a code pays from. */
export function payAccountOfCode(code: number): WebPayAccount | undefined {
  const entry = Object.entries(WEB_PAY_METHOD_CODES).find(([, value]) => value === code);
  return entry?.[0] as WebPayAccount | undefined;
}
