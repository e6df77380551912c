import type {ObjectSource, SourceSink} from '../../source/state/object-source.js';

/** A child source the test drives: what it is given at start() is `sink`, for the test to send events through. */
export function drivenSource(): ObjectSource & {sink: SourceSink} {
	const s = {
		label: 'child',
		scope: 'default',
		sink: (() => {}) as SourceSink,
		start(next: SourceSink) {
			s.sink = next;
		},
		stop() {},
	};
	return s;
}
