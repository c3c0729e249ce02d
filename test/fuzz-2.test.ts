import { fuzzRoutes } from './fuzz-routes'

fuzzRoutes(1, 3)
