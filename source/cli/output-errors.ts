/**
 * What a failed write to stdout means for the exit code. The reader going away (EPIPE, `| head -1`) is not an
 * error of planwatch's, but it must not read as success: the run ends with the code it had reached, or 141 when
 * it had none yet. Any other write error (ENOSPC on a full disk, EIO) is reported in one line and exits 2. Pure.
 */
import {exitCodes} from '../core/exit-codes.js';

const writeErrors: Record<string, string> = {
	ENOSPC: 'no space left on device',
	EDQUOT: 'disk quota exceeded',
	EIO: 'input/output error',
	EFBIG: 'file too large',
	EBADF: 'stdout is closed',
	EACCES: 'permission denied',
	EPERM: 'permission denied',
	EROFS: 'read-only file system',
};

export type OutputFailure = {
	readonly exitCode: number;
	/** The line for stderr (without `planwatch: `), or undefined when nothing should be said. */
	readonly message?: string;
};

/**
 * @param error the error the stdout stream reported
 * @param reached the exit code of the run once its outcome is known (undefined while still running)
 * @param terminal stdout is a terminal
 */
export function outputFailure(error: unknown, reached: number | undefined, terminal = false): OutputFailure {
	const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
	// A terminal that hung up (SSH dropped, window closed) fails writes with EIO: its reader went away too.
	if (code === 'EPIPE' || (terminal && code === 'EIO')) {
		return {exitCode: reached ?? exitCodes.outputClosed};
	}

	const reason = writeErrors[code] ?? (code === '' ? 'write failed' : code);
	return {exitCode: exitCodes.usage, message: `cannot write the output: ${reason}`};
}
