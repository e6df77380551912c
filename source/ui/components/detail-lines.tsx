import {Box, Text} from 'ink';
import type {PlanNode} from '../../model/plan-tree.js';
import {singleLine, wrapLines} from '../cell-text.js';
import {valuesLines} from '../../model/kanister-values.js';
import {roleOf} from '../theme.js';
import {useTheme} from '../theme-context.js';

/** The full text shown under the tree for the selected node (its row cuts the message to the width). */
export function detailText(node: PlanNode | undefined, separator = '·'): string {
	if (!node) {
		return '';
	}

	// A Kanister phase's output and an action's artifacts: on no row, and what the next `kanctl … --from` reads.
	return [node.detail, node.note, node.message, ...valuesLines(node, ` ${separator} `)].filter(Boolean).join(` ${separator} `);
}

/** Lines the detail would like at `width`, at most `max` (`maxWithValues` for a node with Kanister values). */
export function detailLinesWanted(node: PlanNode | undefined, width: number, max = 3, maxWithValues = 5): number {
	// Only a message or values can be too long for the row; the rest (object, note) is on the row already.
	const text = detailText(node);
	const values = node?.output !== undefined || node?.artifacts !== undefined;
	if ((!node?.message && !values) || text === '') {
		return 0;
	}

	// As DetailLines wraps it (by words): one more line than the cells alone would need is often wanted.
	const most = values ? maxWithValues : max;
	return Math.min(most, Math.max(1, wrapLines(`${node!.name}: ${text}`, Math.max(1, width), most).length));
}

/** The selected node's name and full message, wrapped into exactly `height` lines. */
export function DetailLines({node, height, width}: {readonly node: PlanNode | undefined; readonly height: number; readonly width: number}) {
	const theme = useTheme();
	if (!node || height <= 0) {
		return null;
	}

	const role = roleOf(node.state);
	const name = `${singleLine(node.name, theme.glyphs.lineBreak)}: `;
	// Wrapped here, not by Ink, so a message longer than the lines it gets ends in a marker instead of vanishing.
	const lines = wrapLines(
		name + singleLine(detailText(node, theme.glyphs.separator), theme.glyphs.lineBreak),
		width,
		height,
		theme.glyphs.ellipsis,
	);
	const style = theme.style(role === 'success' || role === 'running' ? 'text' : role);
	return (
		<Box flexDirection="column" height={height} width={width} overflow="hidden">
			{lines.map((line, i) => (
				<Text key={i} wrap="truncate-end">
					{i === 0 && line.startsWith(name) ? (
						<>
							<Text bold>{name}</Text>
							<Text {...style}>{line.slice(name.length)}</Text>
						</>
					) : (
						<Text {...style}>{line}</Text>
					)}
				</Text>
			))}
		</Box>
	);
}
