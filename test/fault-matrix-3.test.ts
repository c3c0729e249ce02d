import { faultMatrix } from './fault-matrix'

faultMatrix(2, 3)
