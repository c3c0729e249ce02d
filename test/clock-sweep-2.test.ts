import { clockSweep, INSTANTS } from './clock-sweep'

// The second half of the grid.
clockSweep('clock sweep: a trading day from lunch, and a Saturday', INSTANTS.slice(6))
