// Types of serverFloors.js for its test.
import type { Rule } from 'eslint';
export const serverFloors: Rule.RuleModule;
