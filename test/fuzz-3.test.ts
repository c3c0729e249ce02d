import { fuzzRoutes } from './fuzz-routes'

fuzzRoutes(2, 3)
