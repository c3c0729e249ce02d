import { fuzzRoutes } from './fuzz-routes'

fuzzRoutes(0, 3)
