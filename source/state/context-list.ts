/** The own state of each kubeconfig context of a run that watches several, in the order the source named them. */
import type {ResourceKind} from '../core/kube-object.js';
import type {SourceEvent} from './object-source.js';
import type {ContextState} from './store-snapshot.js';

/** A context's state events (its objects go to the store like any other). */
export type ContextEvent = Exclude<SourceEvent, {type: 'upsert' | 'delete' | 'replace'}>;

export class ContextList {
	#contexts: ContextState[] = [];

	/** A new array after every change (snapshots already handed out keep theirs). */
	get list(): readonly ContextState[] {
		return this.#contexts;
	}

	/** What the context reads as missing (403), for its adaptations. */
	missingOf(name: string): ReadonlyArray<{readonly resource: ResourceKind}> {
		return this.#contexts.find(c => c.name === name)?.missing ?? [];
	}

	/** A state event of one context of several: kept with that context (the source sends the run's fold apart). */
	apply(name: string, event: ContextEvent): void {
		let index = this.#contexts.findIndex(c => c.name === name);
		if (index === -1) {
			index = this.#contexts.push({name, connection: {status: 'connecting'}, synced: false}) - 1;
		}

		const before = this.#contexts[index]!;
		let after: ContextState = before;
		switch (event.type) {
			case 'connection': {
				after = {...before, connection: event.state};
				break;
			}

			case 'synced': {
				after = {...before, synced: true};
				break;
			}

			case 'fatal': {
				after = {...before, fatal: {message: event.message, exitCode: event.exitCode}};
				break;
			}

			case 'missing': {
				after = {
					...before,
					missing: [
						...(before.missing ?? []).filter(m => m.resource !== event.resource),
						{resource: event.resource, message: event.message},
					],
				};
				break;
			}
		}

		this.#contexts = this.#contexts.map((c, i) => (i === index ? after : c));
	}
}
