/** The factor language of /v1/screen: parse (with positions and suggestions), then evaluate over a factor table. */
export { type SetExpr } from './ast'
export { evaluate, type FactorTable } from './evaluate'
export { ExpressionError } from './lexer'
export { EXPRESSION_LIMITS, parseExpression } from './parser'
export { planScreen, ScreenQueryError, SCREEN_DEFAULT_LIMIT, type ScreenPlan } from './plan'
export { runScreen } from './run'
