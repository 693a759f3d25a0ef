// Loaded by Stryker's test runs only (stryker.config.mjs): a mutant is killed by the first case that fails, so
// fast-check stops there instead of shrinking it, which for the host check means sending many more files.
import * as fc from 'fast-check';

fc.configureGlobal({ endOnFailure: true });
