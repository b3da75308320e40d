// The Worker that `npm run bench:settle` serves (scripts/bench-settle.ts): the scheduled job's release
// (releaseDueEscrows, the real code) run on request against D1 wrapped to count what it asks of it, and
// a check of the books afterwards. Bench only: it has D1 and nothing else, and is never deployed.
import { createDatabase } from "~/server/db/client.server";
import { releaseDueEscrows } from "~/server/money/escrow.server";

/** What one run asked of D1: round trips (a batch is one), statements, and the rows D1 says it read and wrote. */
interface D1Counts {
  roundTrips: number;
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Time spent waiting on D1 (under local D1, its SQLite work on this machine). */
  waitedMs: number;
}

interface Meta {
  meta?: { rows_read?: number; rows_written?: number };
}

/** `db` with every round trip counted into `counts`; its statements still D1's own, as batch requires. */
function countingD1(db: D1Database, counts: D1Counts): D1Database {
  const own = new WeakMap<object, D1PreparedStatement>();
  const tally = async <Result>(statements: number, ask: () => Promise<Result>) => {
    const startedAt = performance.now();
    const result = await ask();
    counts.waitedMs += performance.now() - startedAt;
    counts.roundTrips += 1;
    counts.statements += statements;
    for (const one of Array.isArray(result) ? (result as Meta[]) : [result as Meta]) {
      counts.rowsRead += one?.meta?.rows_read ?? 0;
      counts.rowsWritten += one?.meta?.rows_written ?? 0;
    }
    return result;
  };
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapper = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => counted(target.bind(...values));
        if (property === "first" || property === "run" || property === "all" || property === "raw")
          return (...args: unknown[]) =>
            tally(1, () => (target[property] as (...given: unknown[]) => Promise<unknown>).apply(target, args));
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    own.set(wrapper, statement);
    return wrapper;
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (query: string) => counted(target.prepare(query));
      if (property === "batch")
        return (statements: D1PreparedStatement[]) =>
          tally(statements.length, () => target.batch(statements.map((statement) => own.get(statement) ?? statement)));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The books after the runs: each release once, every entry and the whole journal balanced. */
async function booksCheck(db: D1Database) {
  const row = await db
    .prepare(
      `SELECT
         (SELECT count(*) FROM escrows WHERE status = 'held') AS held,
         (SELECT count(*) FROM escrows WHERE status = 'released') AS releasedEscrows,
         (SELECT count(*) FROM ledger_entries WHERE kind = 'escrow_released') AS releaseEntries,
         (SELECT count(DISTINCT consultation_id) FROM ledger_entries WHERE kind = 'escrow_released') AS consultationsReleased,
         (SELECT count(*) FROM (SELECT consultation_id FROM ledger_entries WHERE kind = 'escrow_released' GROUP BY consultation_id HAVING count(*) > 1)) AS releasedTwice,
         (SELECT count(*) FROM audit_log WHERE action = 'escrow.released') AS releaseAudits,
         (SELECT coalesce(sum(amount_santim), 0) FROM ledger_lines) AS journalSum,
         (SELECT count(*) FROM (SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING sum(amount_santim) <> 0)) AS unbalancedEntries,
         (SELECT coalesce(sum(amount_santim), 0) FROM ledger_lines WHERE account = 'escrow' AND subject IN (SELECT consultation_id FROM escrows WHERE status = 'released')) AS releasedEscrowBalance`,
    )
    .first();
  return row;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (url.pathname === "/check") return Response.json(await booksCheck(env.DB));
    if (url.pathname === "/release" && request.method === "POST") {
      const counts: D1Counts = { roundTrips: 0, statements: 0, rowsRead: 0, rowsWritten: 0, waitedMs: 0 };
      const db = createDatabase(countingD1(env.DB, counts));
      const startedAt = performance.now();
      const released = await releaseDueEscrows(db, new Date());
      const tookMs = performance.now() - startedAt;
      const held = await env.DB.prepare("SELECT count(*) AS held FROM escrows WHERE status = 'held'").first<number>("held");
      return Response.json({ released, held, tookMs, ...counts });
    }
    return new Response("Not Found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
