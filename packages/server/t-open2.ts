import { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "/work/main/packages/server/src/storage/database.ts";
import { migrateToLatest } from "/work/main/packages/server/src/storage/migrator.ts";
let t = performance.now();
const lap = (m: string) => { const n = performance.now(); console.log(m, (n - t).toFixed(0)); t = n; };
const h = await openDatabase({ kind: "pglite" }); lap("create");
await migrateToLatest(h.db); lap("migrate");
const raw = new PGlite(); await raw.waitReady; lap("bare create");
const p2 = (h as any); 
await h.close(); lap("close");
// dump
const pg = await PGlite.create(); 
const h3 = await openDatabase({ kind: "pglite" }); await migrateToLatest(h3.db); t = performance.now();
// access underlying pglite via kysely? Use new instance instead
const pg4 = await PGlite.create(); lap("create4");
await pg4.exec("create table x(a int)");
const dump = await pg4.dumpDataDir("none"); lap("dump " + dump.size);
const pg5 = await PGlite.create({ loadDataDir: dump }); lap("load");
