// One writer per table (docs/decisions/0016, 0046), checked on the syntax tree: every write of a table
// the options name, whether through drizzle (`db.update(escrows)`, `tx.insert(schema.payments)`, an
// alias, a helper handed the table) or raw SQL, lives in that table's writer module(s); and where a
// table also names a status writer (the consultations' move module), only that one creates its rows or
// writes their status, the other writers keeping to the columns they own.
import { relative } from "node:path";

const WRITE_METHODS = new Set(["insert", "update", "delete"]);
/** Helpers named for writing (insertWhere, updateRow…) that are handed the table. */
const WRITE_HELPER = /^(?:insert|update|delete|upsert|write)/i;
const WRITE_VERBS = String.raw`\b(?:UPDATE|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|REPLACE\s+INTO)\s+["\x60]?`;

const importedName = (specifier) => (specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value);
const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
/** A folder (ending in /) holds every file under it; a file is itself. */
const holds = (places, file) => places.some((place) => (place.endsWith("/") ? file.startsWith(place) : file === place));
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const places = { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" }, minItems: 1 }] };

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "problem",
    docs: { description: "Each table named is written only by its writer module(s), and its status only by its status writer." },
    schema: [
      {
        type: "object",
        properties: {
          tables: {
            type: "object",
            additionalProperties: {
              type: "object",
              properties: { writers: places, statusWriter: places },
              required: ["writers"],
              additionalProperties: false,
            },
          },
        },
        required: ["tables"],
        additionalProperties: false,
      },
    ],
    messages: {
      outsideWriters: "The {{table}} table is written only in {{writers}}: call its writer instead.",
      outsideMove: "Only {{statusWriter}} creates a row of the {{table}} table or writes its status: make it a move of its state machine.",
    },
  },
  create(context) {
    const [{ tables }] = context.options;
    const names = Object.keys(tables);
    const file = relative(context.cwd, context.filename).split("\\").join("/");
    const writeVerb = new RegExp(`${WRITE_VERBS}(${names.map(escapeRegExp).join("|")})["\x60]?(?![\\w.])`, "gi");

    /** The definitions of the variable `identifier` reads, or null when it is no variable of the file (a global). */
    const definitionsOf = (identifier) => {
      for (let scope = context.sourceCode.getScope(identifier); scope; scope = scope.upper) {
        const variable = scope.set.get(identifier.name);
        if (variable) return variable.defs;
      }
      return null;
    };
    /** The table an identifier is bound to by import (`escrows`, or a rename), not a local of that name; else null. */
    const importedTable = (identifier) => {
      const def = definitionsOf(identifier)?.find((def) => def.type === "ImportBinding" && def.node.type === "ImportSpecifier");
      const name = def && importedName(def.node);
      return name && Object.hasOwn(tables, name) ? name : null;
    };
    /** A namespace the tables may be read from (`schema` imported, or any import), not a local object (`rows.payments`). */
    const mayHoldTables = (object) =>
      object.type === "Identifier" && (definitionsOf(object)?.every((def) => def.type === "ImportBinding") ?? true);
    /** The table `node` names (`escrows`, `schema.escrows`, `schema["escrows"]`), or null. */
    const tableOf = (node) => {
      if (node?.type === "Identifier") return importedTable(node);
      if (node?.type !== "MemberExpression" || !mayHoldTables(node.object)) return null;
      const name =
        !node.computed && node.property.type === "Identifier"
          ? node.property.name
          : node.property.type === "Literal"
            ? node.property.value
            : null;
      return typeof name === "string" && Object.hasOwn(tables, name) ? name : null;
    };

    const report = (node, messageId, table) =>
      context.report({
        node,
        messageId,
        data: { table, writers: list(tables[table].writers).join(" or "), statusWriter: list(tables[table].statusWriter).join(" or ") },
      });
    /** Checks a write of `table`; `createsOrMoves` when it adds a row or may change a status. */
    const checkWrite = (node, table, { createsOrMoves }) => {
      const { writers, statusWriter } = tables[table];
      if (!holds(list(writers), file)) return report(node, "outsideWriters", table);
      if (statusWriter !== undefined && createsOrMoves && !holds(list(statusWriter), file)) report(node, "outsideMove", table);
    };

    /** The object a chained `.set(…)` or `.values(…)` passes, when the write names its columns. */
    const chainedArgument = (call, method) => {
      const member = call.parent;
      if (member?.type !== "MemberExpression" || member.property.name !== method || member.parent?.type !== "CallExpression")
        return undefined;
      return member.parent.arguments[0];
    };
    const mayWriteStatus = (columns) =>
      columns?.type !== "ObjectExpression" ||
      columns.properties.some(
        (property) =>
          property.type === "SpreadElement" ||
          property.computed ||
          (property.key.type === "Identifier" ? property.key.name : property.key.value) === "status",
      );

    const checkRawSql = (node, text) => {
      for (const match of text.matchAll(writeVerb)) {
        const table = names.find((name) => name.toLowerCase() === match[1].toLowerCase());
        checkWrite(node, table, { createsOrMoves: !/^\s*DELETE/i.test(match[0]) });
      }
    };

    return {
      CallExpression(node) {
        const callee = node.callee;
        const name =
          callee.type === "Identifier" ? callee.name : callee.type === "MemberExpression" && !callee.computed ? callee.property.name : "";
        if (WRITE_METHODS.has(name) && callee.type === "MemberExpression") {
          const table = tableOf(node.arguments[0]);
          if (!table) return;
          const createsOrMoves = name === "insert" || (name === "update" && mayWriteStatus(chainedArgument(node, "set")));
          checkWrite(node, table, { createsOrMoves });
        } else if (WRITE_HELPER.test(name)) {
          // A helper that writes a table it is handed (insertWhere(db, escrows, …)) writes it here.
          for (const table of new Set(node.arguments.map(tableOf).filter(Boolean))) checkWrite(node, table, { createsOrMoves: true });
        }
      },
      TemplateLiteral(node) {
        const text = node.quasis
          .map((quasi, index) => quasi.value.cooked + (index < node.expressions.length ? (tableOf(node.expressions[index]) ?? "?") : ""))
          .join("");
        checkRawSql(node, text);
      },
      Literal(node) {
        if (typeof node.value === "string") checkRawSql(node, node.value);
      },
    };
  },
};
