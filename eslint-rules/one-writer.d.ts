import type { Rule } from "eslint";

declare const oneWriter: Rule.RuleModule;
export default oneWriter;
