/** The factor language of /v1/screen: parse (with positions and suggestions), then evaluate over a factor table. */
export { factorsOf, type CompareOp, type NumExpr, type SetExpr } from './ast'
export { evaluate, type FactorTable, type ScreenTable } from './evaluate'
export { ExpressionError } from './lexer'
export { EXPRESSION_LIMITS, parseExpression, SET_FUNCTIONS, type ParseOptions } from './parser'
export { planScreen, ScreenQueryError, SCREEN_DEFAULT_LIMIT, type ScreenPlan, type ScreenQuery } from './plan'
export { formatFactor, runScreen, type ScreenResult, type ScreenRow } from './run'
