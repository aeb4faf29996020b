import { Box, Text } from 'ink';
import { promptLines, type PromptLinesInput } from './prompt-lines.js';

export { promptBoxHeight, promptTextWidth } from './prompt-lines.js';

export type PromptBoxProps = PromptLinesInput;

/** The prompt box through Ink (no frame writer): the same lines the screen painter draws. */
export function PromptBox(props: PromptBoxProps) {
  const lines = promptLines(props);
  return (
    <Box flexDirection="column" width={props.width} height={lines.length}>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
