/**
 * Counts what React did in each commit: which components rendered (by name) and how many host nodes (Ink's DOM
 * elements and texts) were updated, inserted or removed. Read from React's fiber tree after each commit (a
 * `Profiler` says when), so nothing in the app is instrumented; counted, not timed.
 *
 * How a fiber is told apart: React keeps two fibers per component and swaps them each commit. A subtree React did
 * not visit is the previous commit's very objects; a fiber it visited is the other one of the pair. Of those, a
 * component that ran its function has PerformedWork (1) in its flags, a host node React updates has Update (4),
 * one it inserts Placement (2) (flag values of react-reconciler 0.34, React 19).
 */
import {Component, Profiler, type ReactNode} from 'react';

const performedWork = 1;
const placement = 2;
const update = 4;
const childDeletion = 16;
/** Function, class, forwardRef, memo and simple memo components. */
const componentTags = new Set([0, 1, 11, 14, 15]);
const hostComponent = 5;
const hostText = 6;

type Fiber = {
	readonly tag: number;
	readonly type: unknown;
	readonly flags: number;
	readonly alternate: Fiber | null;
	readonly child: Fiber | null;
	readonly sibling: Fiber | null;
	readonly return: Fiber | null;
	readonly stateNode: unknown;
	readonly deletions?: readonly Fiber[] | null;
};

export type Commit = {
	/** Component name → how many of it rendered. */
	readonly rendered: ReadonlyMap<string, number>;
	/** `Text in ObjectRow` → how many: each rendered component by the nearest app component above it. */
	readonly renderedIn: ReadonlyMap<string, number>;
	/** Host elements and texts whose props or text changed (Ink's commitUpdate / commitTextUpdate). */
	readonly hostUpdates: number;
	/** Host nodes inserted or moved, and subtrees removed. */
	readonly placements: number;
	readonly deletions: number;
};

function nameOf(type: unknown): string {
	let t = type as {type?: unknown; render?: unknown; displayName?: string; name?: string} | undefined;
	// memo(…) and forwardRef(…) wrap the function.
	while (t && typeof t === 'object' && (t.type !== undefined || t.render !== undefined)) {
		t = (t.type ?? t.render) as typeof t;
	}

	return t?.displayName ?? t?.name ?? '?';
}

/** Ink's own components, and our thin wrappers of them: a render is named after the component above them. */
const building = new Set(['Text', 'Box', 'Line', 'Transform']);

function ownerOf(fiber: Fiber): string {
	for (let f = fiber.return; f; f = f.return) {
		if (componentTags.has(f.tag)) {
			const name = nameOf(f.type);
			if (!building.has(name)) {
				return name;
			}
		}
	}

	return '(root)';
}

export type RenderCounter = {
	/** Wrap the tree to count. */
	wrap(tree: ReactNode): ReactNode;
	/** The commits since the last `reset()` (or the mount). */
	readonly commits: readonly Commit[];
	/** Forget the commits so far. */
	reset(): void;
	/** Renders of `name` over the commits since the last reset. */
	rendered(name: string): number;
	/** Every component that rendered since the last reset, with its count. */
	renderedAll(): Record<string, number>;
	/** Like `renderedAll`, by the nearest app component above each (`Text in ObjectRow`). */
	renderedIn(): Record<string, number>;
	/** Host updates over the commits since the last reset. */
	hostUpdates(): number;
};

export function renderCounter(): RenderCounter {
	let root: {current: Fiber} | undefined;
	let previous = new Set<Fiber>();
	let commits: Commit[] = [];

	const walk = () => {
		if (!root) {
			return;
		}

		const seen = new Set<Fiber>();
		const rendered = new Map<string, number>();
		const renderedIn = new Map<string, number>();
		let hostUpdates = 0;
		let placements = 0;
		let deletions = 0;
		const stack: Fiber[] = [root.current];
		while (stack.length > 0) {
			const fiber = stack.pop()!;
			seen.add(fiber);
			const visited = !previous.has(fiber);
			if (visited) {
				if (componentTags.has(fiber.tag) && ((fiber.flags & performedWork) !== 0 || fiber.alternate === null)) {
					const name = nameOf(fiber.type);
					rendered.set(name, (rendered.get(name) ?? 0) + 1);
					const where = `${name} in ${ownerOf(fiber)}`;
					renderedIn.set(where, (renderedIn.get(where) ?? 0) + 1);
				}

				if (fiber.tag === hostComponent || fiber.tag === hostText) {
					if ((fiber.flags & update) !== 0 && fiber.alternate !== null) {
						hostUpdates++;
					}

					if ((fiber.flags & placement) !== 0) {
						placements++;
					}
				}

				if ((fiber.flags & childDeletion) !== 0) {
					deletions += fiber.deletions?.length ?? 0;
				}
			}

			for (let child = fiber.child; child; child = child.sibling) {
				stack.push(child);
			}
		}

		previous = seen;
		commits.push({rendered, renderedIn, hostUpdates, placements, deletions});
	};

	/** Finds React's root from its own fiber once mounted. */
	class Probe extends Component<{readonly children: ReactNode}> {
		override componentDidMount() {
			let fiber = (this as unknown as {_reactInternals: Fiber})._reactInternals;
			while (fiber.return) {
				fiber = fiber.return;
			}

			root = fiber.stateNode as {current: Fiber};
			walk();
			commits = [];
		}

		override render() {
			return this.props.children;
		}
	}

	const sum = (pick: (c: Commit) => number) => commits.reduce((n, c) => n + pick(c), 0);
	return {
		wrap: tree => (
			<Probe>
				<Profiler id="render-count" onRender={walk}>
					{tree}
				</Profiler>
			</Probe>
		),
		get commits() {
			return commits;
		},
		reset() {
			commits = [];
		},
		rendered: name => sum(c => c.rendered.get(name) ?? 0),
		renderedAll() {
			const all: Record<string, number> = {};
			for (const c of commits) {
				for (const [name, n] of c.rendered) {
					all[name] = (all[name] ?? 0) + n;
				}
			}

			return all;
		},
		renderedIn() {
			const all: Record<string, number> = {};
			for (const c of commits) {
				for (const [name, n] of c.renderedIn) {
					all[name] = (all[name] ?? 0) + n;
				}
			}

			return all;
		},
		hostUpdates: () => sum(c => c.hostUpdates),
	};
}
