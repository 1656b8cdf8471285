export { TargetConfigurationError } from './errors.js';
export { createTargetInvoker, RESILIENCE_BY_KIND, type TargetDeps } from './createTargetInvoker.js';
export { TargetRegistry, type InvokerContext, type TargetHealth, type TargetRegistryOptions } from './targetRegistry.js';
export { LazyInvoker } from './lazyInvoker.js';
export { ReplayTarget, type ReplayTargetOptions } from './replay/replayTarget.js';
export { ReplayOutputsCache, sharedReplayOutputs, type ReplayOutputsCacheOptions } from './replay/replayOutputsCache.js';
export { OpenAITarget, type OpenAITargetOptions } from './openai/openaiTarget.js';
export { createOpenAIClient } from './openai/openaiClient.js';
export { ToolNameMap } from './openai/toolNames.js';
export { AnthropicTarget, type AnthropicTargetOptions } from './anthropic/anthropicTarget.js';
export { McpServerPool } from './mcp/mcpServerPool.js';
export { McpConnection, type McpCallResult, type McpConnectionOptions } from './mcp/mcpConnection.js';
export { MCP_SESSION_META_KEY, McpToolSource, type McpSnapshot } from './mcp/mcpToolSource.js';
export { McpServerUnavailableError } from './mcp/mcpErrors.js';
export { McpToolTarget } from './mcp/mcpTarget.js';
export { catalogFromMcpTools } from './mcp/mcpCatalog.js';
export { ExpectedCallsInvoker } from './toolMode/expectedCallsInvoker.js';
export { HttpTarget, type HttpSettings, type HttpTargetOptions } from './http/httpTarget.js';
export { compileTemplate, type CompiledTemplate, type TemplateValues } from './http/requestTemplate.js';
export { extractResponse, type ExtractedResponse, type ResponsePaths } from './http/responseExtraction.js';
export {
  runToolLoop,
  parseArguments,
  type LoopAnswer,
  type LoopCall,
  type LoopToolResult,
  type LoopTurn,
  type ToolLoopInput,
  type ToolLoopOutcome,
  type ToolLoopProtocol,
} from './toolLoop/toolLoop.js';
export { targetNeedsToolExecutor } from './toolLoop/needsTools.js';
