/** The Chinese of every text the pages show (English is the key). */
export const ZH: Record<string, string> = {};
