/** The recent status changes, numbered and bounded: what notifications, the history and `--record` read. */
import type {PlanObject} from '../model/plan-tree.js';
import type {NodeTiming, Transition} from './store-snapshot.js';

const maxTransitions = 2000;

export class TransitionLog {
	#transitions: Transition[] = [];
	#seq = 0;

	/** Oldest first; a new array after every change (snapshots already handed out keep theirs). */
	get list(): readonly Transition[] {
		return this.#transitions;
	}

	record(r: {
		key: string;
		object: PlanObject;
		path: readonly string[];
		from: string;
		to: string;
		at: number;
		timing: NodeTiming | undefined;
	}): void {
		const durationMs = r.timing?.startedAt !== undefined && r.timing.endedAt === undefined ? r.at - r.timing.startedAt : undefined;
		this.#transitions.push({
			seq: ++this.#seq,
			...(r.object.context === undefined ? {} : {context: r.object.context}),
			at: r.at,
			objectKey: r.key,
			kind: r.object.kind,
			namespace: r.object.namespace,
			name: r.object.name,
			path: r.path,
			from: r.from,
			to: r.to,
			durationMs,
			...(durationMs !== undefined && r.timing?.atLeast ? {atLeast: true as const} : {}),
		});
		if (this.#transitions.length > maxTransitions) {
			this.#transitions = this.#transitions.slice(-maxTransitions);
		} else {
			this.#transitions = [...this.#transitions];
		}
	}
}
