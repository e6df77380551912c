/**
 * YAML text → documents, with alias expansion bounded. An alias is a pointer to an anchored node; a few hundred
 * bytes of nested anchors ("billion laughs") describe a tree of billions of nodes, which every walk over the
 * documents (normalizing, adapting, JSON output) would expand. The event stream is checked before anything
 * is built: the expanded size of every anchor is known when its alias is met, so the check costs one pass.
 * js-yaml is used directly (the YAML library client-node itself uses), with its core schema plus the two YAML 1.1
 * tags kubectl accepts as data, `!!timestamp` and `!!binary`, explicit only: a plain `2024-01-02` stays a string
 * (no Date objects), and no other tag exists, so none can construct anything but data.
 */
import {binaryTag, constructFromEvents, CORE_SCHEMA, defineScalarTag, EVENT_ID, parseEvents, timestampTag, type Event} from 'js-yaml';

const schema = CORE_SCHEMA.withTags(
	defineScalarTag(timestampTag.tagName, {implicit: false, resolve: timestampTag.resolve, identify: () => false}),
	defineScalarTag(binaryTag.tagName, {implicit: false, resolve: binaryTag.resolve, identify: () => false}),
);

export type ExpansionLimits = {
	/** Alias nodes (`*name`) in the whole input. */
	readonly maxAliases: number;
	/** Nodes that aliases add when expanded, in the whole input (the input's own nodes do not count). */
	readonly maxAliasedNodes: number;
};

/** Far above what a hand-written manifest uses (kubectl's output has no aliases), far below a bomb. */
export const defaultExpansionLimits: ExpansionLimits = {maxAliases: 10_000, maxAliasedNodes: 1_000_000};

/** The input would expand past a limit; `message` is one line. */
export class ExpansionLimitError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ExpansionLimitError';
	}
}

type Frame = {size: number; readonly anchor?: string};

/**
 * Throws ExpansionLimitError when the aliases of `events` are too many or expand to too many nodes. Anchors are
 * per document, as in YAML; an alias to an unknown anchor counts as one node (the constructor rejects it).
 */
export function checkAliasExpansion(events: readonly Event[], source: string, limits: ExpansionLimits = defaultExpansionLimits): void {
	let anchors = new Map<string, number>();
	const stack: Frame[] = [];
	let aliases = 0;
	let aliased = 0;
	const anchorOf = (event: {readonly anchorStart: number; readonly anchorEnd: number}) =>
		event.anchorStart === -1 ? undefined : source.slice(event.anchorStart, event.anchorEnd);
	const add = (size: number) => {
		const top = stack.at(-1);
		if (top) {
			top.size += size;
		}
	};

	for (const event of events) {
		switch (event.type) {
			case EVENT_ID.DOCUMENT: {
				anchors = new Map();
				stack.push({size: 0});
				break;
			}

			case EVENT_ID.SEQUENCE:
			case EVENT_ID.MAPPING: {
				const anchor = anchorOf(event);
				stack.push(anchor === undefined ? {size: 1} : {size: 1, anchor});
				break;
			}

			case EVENT_ID.SCALAR: {
				const anchor = anchorOf(event);
				if (anchor !== undefined) {
					anchors.set(anchor, 1);
				}

				add(1);
				break;
			}

			case EVENT_ID.ALIAS: {
				const size = anchors.get(source.slice(event.anchorStart, event.anchorEnd)) ?? 1;
				aliases++;
				aliased += size;
				if (aliases > limits.maxAliases) {
					throw new ExpansionLimitError(`more than ${limits.maxAliases} YAML aliases`);
				}

				if (aliased > limits.maxAliasedNodes) {
					throw new ExpansionLimitError(`YAML aliases expand to more than ${limits.maxAliasedNodes} nodes (an alias bomb?)`);
				}

				add(size);
				break;
			}

			case EVENT_ID.POP: {
				const frame = stack.pop();
				if (frame?.anchor !== undefined) {
					anchors.set(frame.anchor, frame.size);
				}

				if (frame) {
					add(frame.size);
				}

				break;
			}
		}
	}
}

/**
 * Every document of a YAML stream (JSON is YAML), empty documents as null. Throws js-yaml's YAMLException on
 * malformed text and ExpansionLimitError on an alias bomb.
 */
export function loadYamlDocuments(text: string, limits: ExpansionLimits = defaultExpansionLimits): unknown[] {
	const events = parseEvents(text, {});
	checkAliasExpansion(events, text, limits);
	return constructFromEvents(events, {source: text, schema});
}
