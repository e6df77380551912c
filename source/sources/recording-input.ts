/**
 * A recording read from a file or stdin with bounds (bounded-input.ts: chunks, binary refused, the whole file
 * capped) and parsed line by line as it arrives (state/recording.ts): neither the file's text nor a list of its
 * lines is ever held.
 */
import {recordingLimits, RecordingError, type Recording, type RecordingParser} from '../recording/recording.js';
import {textLines} from './bounded-input.js';

export async function readRecordingLines(chunks: AsyncIterable<string>, parser: RecordingParser): Promise<Recording> {
	let line = 0;
	const tooLong = (at: number): Error =>
		new RecordingError(`${parser.name}: line ${at}: line longer than ${recordingLimits.maxLineChars / 1024 / 1024} MiB`);
	for await (const {text, terminated} of textLines(chunks, recordingLimits.maxLineChars, tooLong)) {
		parser.line(text, ++line, terminated);
	}

	return parser.finish();
}
