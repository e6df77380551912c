import {Box, Text} from 'ink';
import type {PlanNode} from '../../model/plan-tree.js';
import {singleLine} from '../cell-text.js';
import {displayWidth} from '../../model/display-width.js';
import {roleOf} from '../theme.js';
import {useTheme} from '../theme-context.js';

/** The full text shown under the tree for the selected node (its row cuts the message to the width). */
export function detailText(node: PlanNode | undefined, separator = '·'): string {
	if (!node) {
		return '';
	}

	return [node.detail, node.note, node.message].filter(Boolean).join(` ${separator} `);
}

/** Lines the detail would like at `width`, at most `max`. */
export function detailLinesWanted(node: PlanNode | undefined, width: number, max = 3): number {
	// Only a message can be too long for its row; the rest (object, note) is on the row already.
	const text = detailText(node);
	if (!node?.message || text === '') {
		return 0;
	}

	const full = displayWidth(`${node.name}: ${text}`);
	return Math.min(max, Math.max(1, Math.ceil(full / Math.max(1, width))));
}

/** The selected node's name and full message, wrapped into exactly `height` lines. */
export function DetailLines({node, height, width}: {readonly node: PlanNode | undefined; readonly height: number; readonly width: number}) {
	const theme = useTheme();
	if (!node || height <= 0) {
		return null;
	}

	const role = roleOf(node.state);
	return (
		<Box height={height} width={width} overflow="hidden">
			<Text wrap="wrap">
				<Text bold>{singleLine(node.name, theme.glyphs.lineBreak)}: </Text>
				<Text {...theme.style(role === 'success' || role === 'running' ? 'text' : role)}>
					{singleLine(detailText(node, theme.glyphs.separator), theme.glyphs.lineBreak)}
				</Text>
			</Text>
		</Box>
	);
}
