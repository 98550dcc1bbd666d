export interface RuleInfo { readonly id: string; readonly family: string; readonly source: string }
