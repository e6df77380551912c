import {Box, Text} from 'ink';
import type {Diagnosis} from '../../model/diagnosis.js';
import {singleLine} from '../cell-text.js';
import {useTheme} from '../theme-context.js';
import {copiesHint, whyLabelWidth, whyLines} from '../why-lines.js';
import {Line} from './line.js';

type WhyPaneProps = {readonly diagnosis: Diagnosis | undefined; readonly height: number; readonly width: number};

/** The label column: `    why  `, blank under a label. */
function label(text: string): string {
	return text ? `${text.padStart(whyLabelWidth - 2)}  ` : ' '.repeat(whyLabelWidth);
}

/** Why the selected node is stuck or failed, in exactly `height` lines (see ui/why-lines.ts). */
export function WhyPane({diagnosis, height, width}: WhyPaneProps) {
	const theme = useTheme();
	const lines = whyLines(diagnosis, height, width);
	if (lines.length === 0) {
		return null;
	}

	return (
		<Box flexDirection="column" height={lines.length} width={width}>
			{lines.map((line, i) => (
				// Lines of one pane, rebuilt together: their place is their identity.
				<Line key={i}>
					<Text {...theme.style('muted')}>{label(line.label)}</Text>
					<Text {...theme.style(line.role)}>{singleLine(line.text, theme.glyphs.lineBreak)}</Text>
					{line.copies ? <Text {...theme.style('muted')}>{copiesHint}</Text> : undefined}
				</Line>
			))}
		</Box>
	);
}
