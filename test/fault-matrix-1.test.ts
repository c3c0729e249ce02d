import { faultMatrix } from './fault-matrix'

faultMatrix(0, 3)
