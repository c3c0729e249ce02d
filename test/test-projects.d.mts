/** Tests of pure modules, run in Node threads (test/test-projects.mjs). */
export declare const unitFiles: string[]
/** Tests that need the Workers runtime, run in workerd (test/test-projects.mjs). */
export declare const workerdFiles: string[]
