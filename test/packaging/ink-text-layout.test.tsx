/**
 * The patched Ink DOM (patches/ink+8.0.0.patch, build/dom.js `setTextNodeValue`): a changed text whose enclosing
 * `<Text>` measures as it did at the last layout, and was not wrapped then, marks no Yoga node dirty (a timer going
 * from 1:08 to 1:09 costs no layout). The check runs once per commit, before the layout (build/reconciler.js
 * `resetAfterCommit`), however many texts of it changed. Anything else is laid out again. Counted through each Yoga
 * node's `markDirty` and each squash of a text; every frame must equal a fresh render of the same tree.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {Box, Text, Transform} from 'ink';
import {render} from 'ink-testing-library';
import {memo, type ReactElement} from 'react';
import {describe, expect, test} from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
type DomNode = {readonly nodeName: string; readonly childNodes?: readonly DomNode[]; yogaNode?: {markDirty(): void}};
// Ink's instances by stdout: the way to its DOM (build/instances.js).
const {default: instances} = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/instances.js')).href)) as {
	default: WeakMap<object, {rootNode: DomNode}>;
};

/** Counts every `markDirty` of the Yoga nodes under `node` from now on. */
function countMarkDirty(node: DomNode): () => number {
	let count = 0;
	const visit = (n: DomNode): void => {
		const yoga = n.yogaNode;
		if (yoga) {
			const markDirty = yoga.markDirty.bind(yoga);
			yoga.markDirty = () => {
				count++;
				markDirty();
			};
		}

		for (const child of n.childNodes ?? []) {
			visit(child);
		}
	};

	visit(node);
	return () => count;
}

/** Renders `before`, then `after`: the Yoga nodes marked dirty by the change, and the frames. */
function change(before: ReactElement, after: ReactElement) {
	const shown = render(before);
	const dirty = countMarkDirty(instances.get(shown.stdout)!.rootNode);
	shown.rerender(after);
	const changed = shown.lastFrame();
	shown.unmount();
	const fresh = render(after);
	const full = fresh.lastFrame();
	fresh.unmount();
	return {dirty: dirty(), changed, full};
}

const row = (timer: string) => (
	<Box width={30}>
		<Text>step </Text>
		<Text>{timer}</Text>
		<Text>|end</Text>
	</Box>
);
/** A component of its own inside a text (as a timer that follows the clock): only its text node changes. */
const Bare = memo(({text}: {readonly text: string}) => text);
const nested = (timer: string) => (
	<Box width={30}>
		<Text>
			a <Bare text={timer} /> b
		</Text>
		<Text>|end</Text>
	</Box>
);
// A nested <Text> gets a new transform each time its parent renders: it is measured again, at the end of the commit.
const styled = (timer: string) => (
	<Box width={30}>
		<Text>
			a <Text color="green">{timer}</Text> b
		</Text>
	</Box>
);
const narrow = (text: string) => (
	<Box width={4} flexDirection="column">
		<Text>{text}</Text>
		<Text>end</Text>
	</Box>
);

describe('a changed text', () => {
	test.each([
		['of the same width', row('1:08'), row('1:09')],
		['nested, of the same width', nested('1:08'), nested('1:09')],
		['in a nested <Text> (a new transform too), of the same width', styled('1:08'), styled('1:09')],
	])('%s marks no Yoga node dirty, and the frame is a full draw', (_what, before, after) => {
		const {dirty, changed, full} = change(before, after);
		expect(changed).toBe(full);
		expect(changed).toContain('1:09');
		expect(dirty).toBe(0);
	});

	test.each([
		['wider', row('9:59'), row('10:00'), 'step 10:00|end'],
		['in a nested <Text>, wider', styled('9:59'), styled('10:00'), 'a 10:00 b'],
		['narrower', row('10:00'), row('9:59'), 'step 9:59|end'],
		['nested, wider', nested('9:59'), nested('10:00'), 'a 10:00 b|end'],
		['of more lines', row('1:08'), row('1:08\n2'), '2'],
		// Both 9 columns wide unwrapped; in 4 columns one takes three lines, the other two.
		['that was wrapped, of the same width', narrow('a b c d e'), narrow('abcd efgh'), 'efgh'],
		['that now wraps', narrow('abc'), narrow('abcdef'), 'abcd'],
		[
			'through a nested transform, wider',
			<Box key="t"><Text>a <Transform transform={line => line}>b</Transform></Text><Text>|end</Text></Box>,
			<Box key="t"><Text>a <Transform transform={line => `[${line}]`}>b</Transform></Text><Text>|end</Text></Box>,
			'a [b]|end',
		],
	])('%s is laid out again', (_what, before, after, shows) => {
		const {dirty, changed, full} = change(before, after);
		expect(changed).toBe(full);
		expect(changed).toContain(shows);
		expect(dirty).toBeGreaterThan(0);
	});

	test('after a wrapped text no longer wraps, a text of the same width is not laid out again', () => {
		const shown = render(narrow('abcdef'));
		shown.rerender(narrow('ab'));
		const dirty = countMarkDirty(instances.get(shown.stdout)!.rootNode);
		shown.rerender(narrow('cd'));
		expect(shown.lastFrame()).toBe('cd\nend');
		expect(dirty()).toBe(0);
		shown.unmount();
	});
});

test('a text whose nested texts all change is squashed once in the commit, not once per nested text', () => {
	const many = (n: number) => (
		<Box width={60}>
			<Text>
				{Array.from({length: 8}, (_, i) => <Text key={i} color="green">{`${i}:${n}`}</Text>)}
			</Text>
		</Box>
	);
	const shown = render(many(10));
	const root = instances.get(shown.stdout)!.rootNode as DomNode & {childNodes: DomNode[]};
	const owner = root.childNodes[0]!.childNodes![0]! as DomNode & {internal_squashedText?: string};
	expect(owner.nodeName).toBe('ink-text');
	let squashed = 0;
	let value = owner.internal_squashedText;
	Object.defineProperty(owner, 'internal_squashedText', {
		get: () => value,
		set(next: string | undefined) {
			value = next;
			if (next !== undefined) {
				squashed++;
			}
		},
	});
	const dirty = countMarkDirty(root);
	shown.rerender(many(11));
	expect(shown.lastFrame()).toBe(Array.from({length: 8}, (_, i) => `${i}:11`).join(''));
	expect(squashed).toBe(1);
	expect(dirty()).toBe(0);
	shown.unmount();
});
