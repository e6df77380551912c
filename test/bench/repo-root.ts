import {fileURLToPath} from 'node:url';

/**
 * The repository root. The bench runs as one esbuild bundle from .cache/bench/, where import.meta.url no longer
 * says where a source file was: the launcher passes the root in PLANWATCH_BENCH_ROOT.
 */
export const repoRoot = process.env['PLANWATCH_BENCH_ROOT'] ?? fileURLToPath(new URL('../../', import.meta.url));
