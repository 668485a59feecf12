//! The views of a `GenerateContentResponse` chunk: the response, its
//! candidates, their content and parts, and the metadata around them.

use crate::json::{JsonStr, RawJson};
use crate::views::List;

view! {
    /// One chunk of a `streamGenerateContent` stream: a
    /// `GenerateContentResponse` holding what this chunk adds.
    ///
    /// Every field is optional. A chunk usually has `candidates`; a prompt
    /// that was blocked sends only `promptFeedback` (and `usageMetadata`);
    /// `usageMetadata` is cumulative, so the last chunk's is the final one.
    pub struct GenerateContentResponse<'a> {
        /// The candidates' new content (one candidate unless more were asked for).
        candidates["candidates"]: opt List<'a, Candidate<'a>>,
        /// Why the prompt was blocked, and its safety ratings.
        prompt_feedback["promptFeedback"]: opt PromptFeedback<'a>,
        /// Token counts so far (cumulative).
        usage_metadata["usageMetadata"]: opt UsageMetadata<'a>,
        /// The model version that served the request.
        model_version["modelVersion"]: opt JsonStr<'a>,
        /// The response's ID, the same on every chunk.
        response_id["responseId"]: opt JsonStr<'a>,
        /// When the request was received (Vertex AI; RFC 3339).
        create_time["createTime"]: opt JsonStr<'a>,
        /// The model's lifecycle status, as raw JSON.
        model_status["modelStatus"]: opt RawJson<'a>,
    }
}

view! {
    /// One element of `candidates`: what a chunk adds to one candidate.
    pub struct Candidate<'a> {
        /// The new parts of the candidate's content.
        content: opt Content<'a>,
        /// `STOP`, `MAX_TOKENS`, `SAFETY`, `RECITATION`, `MALFORMED_FUNCTION_CALL`, …;
        /// absent until the candidate's last chunk (some servers repeat it).
        finish_reason["finishReason"]: opt JsonStr<'a>,
        /// A readable explanation of the finish reason.
        finish_message["finishMessage"]: opt JsonStr<'a>,
        /// Safety ratings of the candidate so far.
        safety_ratings["safetyRatings"]: opt List<'a, SafetyRating<'a>>,
        /// Sources the content recites.
        citation_metadata["citationMetadata"]: opt CitationMetadata<'a>,
        /// The candidate's token count.
        token_count["tokenCount"]: opt u64,
        /// Attributions of grounded answers (attributed question answering), as raw JSON.
        grounding_attributions["groundingAttributions"]: opt RawJson<'a>,
        /// Sources of a grounded answer (Google Search, retrieval).
        grounding_metadata["groundingMetadata"]: opt GroundingMetadata<'a>,
        /// The average log probability of the candidate's tokens.
        avg_logprobs["avgLogprobs"]: opt f64,
        /// Log probabilities of the tokens, as raw JSON.
        logprobs_result["logprobsResult"]: opt RawJson<'a>,
        /// What the URL context tool retrieved, as raw JSON.
        url_context_metadata["urlContextMetadata"]: opt RawJson<'a>,
        /// The candidate's index; often omitted, which means 0 (see
        /// [`index_or_zero`](Self::index_or_zero)).
        index: opt u64,
    }
}

impl Candidate<'_> {
    /// The candidate's index, 0 when it is omitted (as the API does for the
    /// first candidate).
    pub fn index_or_zero(&self) -> u64 {
        self.index.unwrap_or(0)
    }
}

view! {
    /// A candidate's content: its parts and the role.
    ///
    /// `parts` may be absent (a chunk that only carries a finish reason).
    pub struct Content<'a> {
        /// The parts, in order.
        parts: opt List<'a, Part<'a>>,
        /// `model` for generated content.
        role: opt JsonStr<'a>,
    }
}

view! {
    /// One part of a content: text, a thought, a function call, code and its
    /// result, inline or file data, or a kind this version does not model.
    ///
    /// A part holds one kind of data, told by which member is present (there
    /// is no `type`); [`kind`](Self::kind) says which. `thought` and
    /// `thoughtSignature` can ride on any part, even one with no data.
    pub struct Part<'a> {
        /// Text (a thought's text when [`thought`](Self::thought) is true).
        text: opt JsonStr<'a>,
        /// Whether the part is a thought (reasoning) rather than an answer.
        thought: opt bool,
        /// An opaque signature of the model's thoughts, to send back with the
        /// part in the next turn (base64).
        thought_signature["thoughtSignature"]: opt JsonStr<'a>,
        /// Inline bytes (an image, audio).
        inline_data["inlineData"]: opt Blob<'a>,
        /// A reference to a file.
        file_data["fileData"]: opt FileData<'a>,
        /// A call of a declared function, with its arguments; sent whole.
        function_call["functionCall"]: opt FunctionCall<'a>,
        /// A function's result.
        function_response["functionResponse"]: opt FunctionResponse<'a>,
        /// Code the model wrote for the code execution tool.
        executable_code["executableCode"]: opt ExecutableCode<'a>,
        /// The result of running [`ExecutableCode`].
        code_execution_result["codeExecutionResult"]: opt CodeExecutionResult<'a>,
        /// The video segment a part refers to, as raw JSON.
        video_metadata["videoMetadata"]: opt RawJson<'a>,
        /// Custom metadata of the part, as raw JSON.
        part_metadata["partMetadata"]: opt RawJson<'a>,
    }
}

/// What a [`Part`] holds, by the member that is present (see [`Part::kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PartKind {
    /// `text`, not a thought.
    Text,
    /// `text` with `thought: true`.
    Thought,
    /// `inlineData`.
    InlineData,
    /// `fileData`.
    FileData,
    /// `functionCall`.
    FunctionCall,
    /// `functionResponse`.
    FunctionResponse,
    /// `executableCode`.
    ExecutableCode,
    /// `codeExecutionResult`.
    CodeExecutionResult,
    /// None of the above: a part with only metadata (a `thoughtSignature`
    /// alone), or a kind this version does not model (see [`Part::raw`]).
    Other,
}

impl PartKind {
    /// The part's member that holds its data (`"executableCode"`, …;
    /// `"text"` for text and thoughts, `"other"` for [`Other`](Self::Other)).
    pub fn key(self) -> &'static str {
        match self {
            PartKind::Text | PartKind::Thought => "text",
            PartKind::InlineData => "inlineData",
            PartKind::FileData => "fileData",
            PartKind::FunctionCall => "functionCall",
            PartKind::FunctionResponse => "functionResponse",
            PartKind::ExecutableCode => "executableCode",
            PartKind::CodeExecutionResult => "codeExecutionResult",
            PartKind::Other => "other",
        }
    }
}

impl Part<'_> {
    /// Whether the part has no member but `thoughtSignature` and `thought`
    /// (a signature of the text before it, or nothing).
    pub(crate) fn is_bare(&self) -> bool {
        match crate::json::ObjectView::parse(self.raw().get()) {
            Ok(o) => o
                .members()
                .all(|(k, _)| k == "thoughtSignature" || k == "thought"),
            Err(_) => false,
        }
    }

    /// What the part holds: the first of its data members that is present.
    pub fn kind(&self) -> PartKind {
        if self.text.is_some() {
            if self.thought == Some(true) {
                PartKind::Thought
            } else {
                PartKind::Text
            }
        } else if self.function_call.is_some() {
            PartKind::FunctionCall
        } else if self.executable_code.is_some() {
            PartKind::ExecutableCode
        } else if self.code_execution_result.is_some() {
            PartKind::CodeExecutionResult
        } else if self.inline_data.is_some() {
            PartKind::InlineData
        } else if self.file_data.is_some() {
            PartKind::FileData
        } else if self.function_response.is_some() {
            PartKind::FunctionResponse
        } else {
            PartKind::Other
        }
    }

    /// Whether this is a thought (`thought: true`).
    pub fn is_thought(&self) -> bool {
        self.thought == Some(true)
    }
}

view! {
    /// Inline bytes of a [`Part`].
    pub struct Blob<'a> {
        /// The IANA media type (`image/png`).
        mime_type["mimeType"]: opt JsonStr<'a>,
        /// The bytes, base64.
        data: opt JsonStr<'a>,
    }
}

view! {
    /// A file referred to by a [`Part`].
    pub struct FileData<'a> {
        /// The IANA media type.
        mime_type["mimeType"]: opt JsonStr<'a>,
        /// The file's URI.
        file_uri["fileUri"]: opt JsonStr<'a>,
    }
}

view! {
    /// A function call the model asks for.
    pub struct FunctionCall<'a> {
        /// The call's ID, when the server sends one.
        id: opt JsonStr<'a>,
        /// The function's name.
        name: opt JsonStr<'a>,
        /// The arguments: a JSON object, as raw JSON.
        args: opt RawJson<'a>,
        /// Arguments streamed in pieces (Vertex AI with
        /// `streamFunctionCallArguments`): values at JSON paths, which
        /// together make `args`.
        partial_args["partialArgs"]: opt List<'a, PartialArg<'a>>,
        /// Whether more pieces of this call follow (Vertex AI): a call with
        /// streamed arguments is named on its first part only and ends at
        /// the part without `willContinue: true` (or at an empty
        /// `functionCall`).
        will_continue["willContinue"]: opt bool,
    }
}

view! {
    /// One piece of streamed function-call arguments
    /// ([`FunctionCall::partial_args`]): a value at a JSON path of the
    /// arguments object. A string may come in several pieces at the same
    /// path, each but the last with `willContinue: true`.
    pub struct PartialArg<'a> {
        /// The JSON path (RFC 9535) of the value: `$.location`,
        /// `$.stops[0].name`, `$['a key']`.
        json_path["jsonPath"]: opt JsonStr<'a>,
        /// A string value, or the next piece of one.
        string_value["stringValue"]: opt JsonStr<'a>,
        /// A number value, as raw JSON.
        number_value["numberValue"]: opt RawJson<'a>,
        /// A boolean value.
        bool_value["boolValue"]: opt bool,
        /// A null value (`"NULL_VALUE"`), as raw JSON.
        null_value["nullValue"]: opt RawJson<'a>,
        /// Whether more pieces of the string at this path follow.
        will_continue["willContinue"]: opt bool,
    }
}

view! {
    /// A function's result, in a [`Part`].
    pub struct FunctionResponse<'a> {
        /// The ID of the call answered.
        id: opt JsonStr<'a>,
        /// The function's name.
        name: opt JsonStr<'a>,
        /// The result, as raw JSON.
        response: opt RawJson<'a>,
    }
}

view! {
    /// Code the model wrote for the code execution tool.
    pub struct ExecutableCode<'a> {
        /// The language (`PYTHON`).
        language: opt JsonStr<'a>,
        /// The code.
        code: opt JsonStr<'a>,
    }
}

view! {
    /// The result of running [`ExecutableCode`].
    pub struct CodeExecutionResult<'a> {
        /// `OUTCOME_OK`, `OUTCOME_FAILED`, `OUTCOME_DEADLINE_EXCEEDED`.
        outcome: opt JsonStr<'a>,
        /// Standard output, or the error.
        output: opt JsonStr<'a>,
    }
}

view! {
    /// A safety rating of a candidate or of the prompt.
    pub struct SafetyRating<'a> {
        /// The harm category (`HARM_CATEGORY_HARASSMENT`, …).
        category: opt JsonStr<'a>,
        /// The probability of harm (`NEGLIGIBLE`, `LOW`, `MEDIUM`, `HIGH`).
        probability: opt JsonStr<'a>,
        /// Whether the content was blocked for this rating.
        blocked: opt bool,
        /// The probability as a score (Vertex AI).
        probability_score["probabilityScore"]: opt f64,
        /// The severity of harm (Vertex AI).
        severity: opt JsonStr<'a>,
        /// The severity as a score (Vertex AI).
        severity_score["severityScore"]: opt f64,
    }
}

view! {
    /// The sources a candidate recites.
    pub struct CitationMetadata<'a> {
        /// The sources (Gemini API).
        citation_sources["citationSources"]: opt List<'a, CitationSource<'a>>,
        /// The sources (Vertex AI).
        citations: opt List<'a, CitationSource<'a>>,
    }
}

view! {
    /// One cited source.
    pub struct CitationSource<'a> {
        /// Where the cited span starts in the candidate's text.
        start_index["startIndex"]: opt u64,
        /// Where it ends (exclusive).
        end_index["endIndex"]: opt u64,
        /// The source's URI.
        uri: opt JsonStr<'a>,
        /// The source's title (Vertex AI).
        title: opt JsonStr<'a>,
        /// The source's license.
        license: opt JsonStr<'a>,
        /// The source's publication date (Vertex AI), as raw JSON.
        publication_date["publicationDate"]: opt RawJson<'a>,
    }
}

view! {
    /// How a candidate's answer was grounded (Google Search, retrieval).
    pub struct GroundingMetadata<'a> {
        /// The search queries run.
        web_search_queries["webSearchQueries"]: opt List<'a, JsonStr<'a>>,
        /// The Google Search suggestion to display, as raw JSON.
        search_entry_point["searchEntryPoint"]: opt RawJson<'a>,
        /// The sources (web pages, retrieved documents), as raw JSON.
        grounding_chunks["groundingChunks"]: opt RawJson<'a>,
        /// Which spans of the text each source supports, as raw JSON.
        grounding_supports["groundingSupports"]: opt RawJson<'a>,
        /// Dynamic retrieval scores, as raw JSON.
        retrieval_metadata["retrievalMetadata"]: opt RawJson<'a>,
    }
}

view! {
    /// Why the prompt was blocked, if it was.
    pub struct PromptFeedback<'a> {
        /// `SAFETY`, `OTHER`, `BLOCKLIST`, `PROHIBITED_CONTENT`, …; absent
        /// when the prompt was not blocked.
        block_reason["blockReason"]: opt JsonStr<'a>,
        /// A readable explanation (Vertex AI).
        block_reason_message["blockReasonMessage"]: opt JsonStr<'a>,
        /// The prompt's safety ratings.
        safety_ratings["safetyRatings"]: opt List<'a, SafetyRating<'a>>,
    }
}

view! {
    /// Token counts. Cumulative in a stream: the last chunk's are final.
    pub struct UsageMetadata<'a> {
        /// Prompt tokens (cached content included).
        prompt_token_count["promptTokenCount"]: opt u64,
        /// Prompt tokens read from the cache.
        cached_content_token_count["cachedContentTokenCount"]: opt u64,
        /// Tokens of the candidates.
        candidates_token_count["candidatesTokenCount"]: opt u64,
        /// Tokens of tool-use prompts.
        tool_use_prompt_token_count["toolUsePromptTokenCount"]: opt u64,
        /// Tokens spent on thoughts.
        thoughts_token_count["thoughtsTokenCount"]: opt u64,
        /// All tokens.
        total_token_count["totalTokenCount"]: opt u64,
        /// Prompt tokens by modality.
        prompt_tokens_details["promptTokensDetails"]: opt List<'a, ModalityTokenCount<'a>>,
        /// Cached tokens by modality.
        cache_tokens_details["cacheTokensDetails"]: opt List<'a, ModalityTokenCount<'a>>,
        /// Candidate tokens by modality.
        candidates_tokens_details["candidatesTokensDetails"]: opt List<'a, ModalityTokenCount<'a>>,
        /// Tool-use prompt tokens by modality.
        tool_use_prompt_tokens_details["toolUsePromptTokensDetails"]: opt List<'a, ModalityTokenCount<'a>>,
        /// The billing traffic type (Vertex AI).
        traffic_type["trafficType"]: opt JsonStr<'a>,
    }
}

view! {
    /// Tokens of one modality.
    pub struct ModalityTokenCount<'a> {
        /// `TEXT`, `IMAGE`, `AUDIO`, `VIDEO`, `DOCUMENT`.
        modality: opt JsonStr<'a>,
        /// The tokens.
        token_count["tokenCount"]: opt u64,
    }
}

view! {
    /// The data of an error sent in the stream: `{"error": {…}}` (Google's
    /// `google.rpc.Status` JSON form). Other members are in
    /// [`raw`](Self::raw).
    pub struct GeminiErrorChunk<'a> {
        /// The error.
        error: req GeminiError<'a>,
    }
}

view! {
    /// An error's details.
    pub struct GeminiError<'a> {
        /// The HTTP status code (`429`, `500`, `503`).
        code: opt u64,
        /// A readable message.
        message: opt JsonStr<'a>,
        /// The canonical status (`RESOURCE_EXHAUSTED`, `UNAVAILABLE`, …).
        status: opt JsonStr<'a>,
        /// Typed details, as raw JSON.
        details: opt RawJson<'a>,
    }
}
