// The one writer of consultations (docs/decisions/0016), checked on the syntax tree: every write of
// the consultations table, whether through drizzle (`db.update(consultations)`,
// `tx.insert(schema.consultations)`, an alias) or raw SQL, lives in app/server/consultations/; and
// there, only the move module creates consultations or writes their status (the state machine's plan).
import { relative } from "node:path";

const WRITE_METHODS = new Set(["insert", "update", "delete"]);
/** Helpers named for writing (insertWhere, updateRow…) that are handed the table. */
const WRITE_HELPER = /^(?:insert|update|delete|upsert|write)/i;
const WRITE_VERB = /\b(?:UPDATE|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|REPLACE\s+INTO)\s+["`]?consultations["`]?(?![\w.])/i;

const importedName = (specifier) => (specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value);

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "problem",
    docs: { description: "Consultations are written only in their writer folder, and their status only by the move module." },
    schema: [
      {
        type: "object",
        properties: { writers: { type: "string" }, moveModule: { type: "string" } },
        required: ["writers", "moveModule"],
        additionalProperties: false,
      },
    ],
    messages: {
      outsideWriters: "Consultations are written only in {{writers}}: call one of its use cases instead.",
      outsideMove: "Only {{moveModule}} creates a consultation or writes its status: make it a move of the state machine.",
    },
  },
  create(context) {
    const [{ writers, moveModule }] = context.options;
    const file = relative(context.cwd, context.filename).split("\\").join("/");
    const inWriters = file.startsWith(writers);
    const isMoveModule = file === moveModule;
    /** An identifier bound to the imported table (`consultations`, or a rename), not a local of that name. */
    const isImportedTable = (identifier) => {
      for (let scope = context.sourceCode.getScope(identifier); scope; scope = scope.upper) {
        const variable = scope.set.get(identifier.name);
        if (variable)
          return variable.defs.some(
            (def) => def.type === "ImportBinding" && def.node.type === "ImportSpecifier" && importedName(def.node) === "consultations",
          );
      }
      return false;
    };

    const isTable = (node) =>
      (node?.type === "Identifier" && isImportedTable(node)) ||
      (node?.type === "MemberExpression" &&
        ((!node.computed && node.property.type === "Identifier" && node.property.name === "consultations") ||
          (node.property.type === "Literal" && node.property.value === "consultations")));

    const report = (node, messageId) => context.report({ node, messageId, data: { writers, moveModule } });

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
      if (!WRITE_VERB.test(text)) return;
      if (!inWriters) report(node, "outsideWriters");
      else if (!isMoveModule && !/^\s*DELETE/i.test(text.slice(text.search(WRITE_VERB)))) report(node, "outsideMove");
    };

    return {
      CallExpression(node) {
        const callee = node.callee;
        const name =
          callee.type === "Identifier" ? callee.name : callee.type === "MemberExpression" && !callee.computed ? callee.property.name : "";
        if (WRITE_METHODS.has(name) && callee.type === "MemberExpression") {
          if (!isTable(node.arguments[0])) return;
          if (!inWriters) return report(node, "outsideWriters");
          if (isMoveModule) return;
          if (name === "insert") return report(node, "outsideMove");
          if (name === "update" && mayWriteStatus(chainedArgument(node, "set"))) report(node, "outsideMove");
        } else if (WRITE_HELPER.test(name) && node.arguments.some(isTable)) {
          // A helper that writes a table it is handed (insertWhere(db, consultations, …)) writes it here.
          if (!inWriters) report(node, "outsideWriters");
          else if (!isMoveModule) report(node, "outsideMove");
        }
      },
      TemplateLiteral(node) {
        const text = node.quasis
          .map(
            (quasi, index) =>
              quasi.value.cooked + (index < node.expressions.length ? (isTable(node.expressions[index]) ? "consultations" : "?") : ""),
          )
          .join("");
        checkRawSql(node, text);
      },
      Literal(node) {
        if (typeof node.value === "string") checkRawSql(node, node.value);
      },
    };
  },
};
