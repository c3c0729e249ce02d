import { faultMatrix } from './fault-matrix'

faultMatrix(1, 3)
