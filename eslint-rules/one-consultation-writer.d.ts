import type { Rule } from "eslint";

declare const oneConsultationWriter: Rule.RuleModule;
export default oneConsultationWriter;
