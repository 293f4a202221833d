import type { GenEnum, GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { JsonObject, Message } from "@bufbuild/protobuf";
/**
 * Describes the file factmemory/v1/factmemory.proto.
 */
export declare const file_factmemory_v1_factmemory: GenFile;
/**
 * @generated from message factmemory.v1.ChatMessage
 */
export type ChatMessage = Message<"factmemory.v1.ChatMessage"> & {
    /**
     * @generated from field: string id = 1;
     */
    id: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string name = 3;
     */
    name: string;
    /**
     * @generated from field: string text = 4;
     */
    text: string;
    /**
     * @generated from field: google.protobuf.Timestamp created_at = 5;
     */
    createdAt?: Timestamp | undefined;
};
/**
 * Describes the message factmemory.v1.ChatMessage.
 * Use `create(ChatMessageSchema)` to create a new message.
 */
export declare const ChatMessageSchema: GenMessage<ChatMessage>;
/**
 * @generated from message factmemory.v1.RoomEntity
 */
export type RoomEntity = Message<"factmemory.v1.RoomEntity"> & {
    /**
     * @generated from field: string id = 1;
     */
    id: string;
    /**
     * @generated from field: repeated string names = 2;
     */
    names: string[];
};
/**
 * Describes the message factmemory.v1.RoomEntity.
 * Use `create(RoomEntitySchema)` to create a new message.
 */
export declare const RoomEntitySchema: GenMessage<RoomEntity>;
/**
 * @generated from message factmemory.v1.Fact
 */
export type Fact = Message<"factmemory.v1.Fact"> & {
    /**
     * @generated from field: string id = 1;
     */
    id: string;
    /**
     * @generated from field: string agent_id = 2;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 3;
     */
    entityId: string;
    /**
     * @generated from field: factmemory.v1.Kind kind = 4;
     */
    kind: Kind;
    /**
     * @generated from field: string category = 5;
     */
    category: string;
    /**
     * @generated from field: string claim = 6;
     */
    claim: string;
    /**
     * @generated from field: google.protobuf.Struct structured_fields = 7;
     */
    structuredFields?: JsonObject | undefined;
    /**
     * @generated from field: double confidence = 8;
     */
    confidence: number;
    /**
     * The latest evidence ids (at most FACTMEMORY_MAX_EVIDENCE_IDS, oldest first); evidence_count is the total.
     *
     * @generated from field: repeated string evidence_message_ids = 9;
     */
    evidenceMessageIds: string[];
    /**
     * @generated from field: factmemory.v1.VerificationStatus verification_status = 10;
     */
    verificationStatus: VerificationStatus;
    /**
     * @generated from field: google.protobuf.Timestamp created_at = 11;
     */
    createdAt?: Timestamp | undefined;
    /**
     * @generated from field: google.protobuf.Timestamp last_confirmed_at = 12;
     */
    lastConfirmedAt?: Timestamp | undefined;
    /**
     * When the state began; set for current facts only.
     *
     * @generated from field: google.protobuf.Timestamp valid_at = 13;
     */
    validAt?: Timestamp | undefined;
    /**
     * Earlier claims replaced by accepted contradictions, oldest first.
     *
     * @generated from field: repeated string previous_claims = 14;
     */
    previousClaims: string[];
    /**
     * The proposed claim of a pending contradiction of this fact; empty when none.
     *
     * @generated from field: string disputed_by = 15;
     */
    disputedBy: string;
    /**
     * How many messages support the fact (evidence_message_ids may hold only the latest of them).
     *
     * @generated from field: uint32 evidence_count = 16;
     */
    evidenceCount: number;
};
/**
 * Describes the message factmemory.v1.Fact.
 * Use `create(FactSchema)` to create a new message.
 */
export declare const FactSchema: GenMessage<Fact>;
/**
 * @generated from message factmemory.v1.EvaluateRequest
 */
export type EvaluateRequest = Message<"factmemory.v1.EvaluateRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * The person the message is from, whose facts are extracted.
     *
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string room_id = 3;
     */
    roomId: string;
    /**
     * @generated from field: factmemory.v1.ChatMessage message = 4;
     */
    message?: ChatMessage | undefined;
    /**
     * Oldest first; the current message may be included and is then ignored.
     *
     * @generated from field: repeated factmemory.v1.ChatMessage recent_messages = 5;
     */
    recentMessages: ChatMessage[];
    /**
     * Empty means all items.
     *
     * @generated from field: repeated factmemory.v1.Item items = 6;
     */
    items: Item[];
    /**
     * @generated from field: repeated factmemory.v1.RoomEntity room_entities = 7;
     */
    roomEntities: RoomEntity[];
    /**
     * @generated from field: repeated factmemory.v1.ChatMessage agent_responses = 8;
     */
    agentResponses: ChatMessage[];
    /**
     * @generated from field: bool did_respond = 9;
     */
    didRespond: boolean;
    /**
     * The world (elizaOS: a Discord server, a Telegram group) the message was said in; empty: none. With it, the
     * model may mark a claim as shared (about the world, not the speaker); shared facts are kept per world.
     *
     * @generated from field: string world_id = 10;
     */
    worldId: string;
    /**
     * The speaker's roles in that world (elizaOS: "OWNER", "ADMIN", "NONE"). A shared claim from a speaker without
     * a teacher role (FACTMEMORY_SHARED_TEACHER_ROLES) becomes a review item instead of a shared fact.
     *
     * @generated from field: repeated string speaker_roles = 11;
     */
    speakerRoles: string[];
    /**
     * The world's name (elizaOS: world.name), shown for its community in ListEntities, the review page and the
     * command line; one line, at most GetLimitsResponse.max_name_chars characters; needs world_id. Stored with the
     * world's shared subjects once it has one; the latest name given wins. Empty: the name stays as it was.
     *
     * @generated from field: string world_name = 12;
     */
    worldName: string;
};
/**
 * Describes the message factmemory.v1.EvaluateRequest.
 * Use `create(EvaluateRequestSchema)` to create a new message.
 */
export declare const EvaluateRequestSchema: GenMessage<EvaluateRequest>;
/**
 * @generated from message factmemory.v1.EvaluateBatchRequest
 */
export type EvaluateBatchRequest = Message<"factmemory.v1.EvaluateBatchRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * The person the messages are from, whose facts are extracted.
     *
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string room_id = 3;
     */
    roomId: string;
    /**
     * The person's messages to evaluate, oldest first (sorted by created_at if not); at most
     * FACTMEMORY_MAX_BATCH_MESSAGES (16 by default), ids unique. Messages already evaluated are not sent to
     * the model again: their stored results are returned.
     *
     * @generated from field: repeated factmemory.v1.ChatMessage messages = 4;
     */
    messages: ChatMessage[];
    /**
     * Context before and around the batch, oldest first; the batch's own messages may be included and are ignored.
     *
     * @generated from field: repeated factmemory.v1.ChatMessage recent_messages = 5;
     */
    recentMessages: ChatMessage[];
    /**
     * Empty means all items.
     *
     * @generated from field: repeated factmemory.v1.Item items = 6;
     */
    items: Item[];
    /**
     * @generated from field: repeated factmemory.v1.RoomEntity room_entities = 7;
     */
    roomEntities: RoomEntity[];
    /**
     * The agent's responses during the batch; the success verdict is about the last message.
     *
     * @generated from field: repeated factmemory.v1.ChatMessage agent_responses = 8;
     */
    agentResponses: ChatMessage[];
    /**
     * @generated from field: bool did_respond = 9;
     */
    didRespond: boolean;
    /**
     * As in EvaluateRequest.
     *
     * @generated from field: string world_id = 10;
     */
    worldId: string;
    /**
     * @generated from field: repeated string speaker_roles = 11;
     */
    speakerRoles: string[];
    /**
     * @generated from field: string world_name = 12;
     */
    worldName: string;
};
/**
 * Describes the message factmemory.v1.EvaluateBatchRequest.
 * Use `create(EvaluateBatchRequestSchema)` to create a new message.
 */
export declare const EvaluateBatchRequestSchema: GenMessage<EvaluateBatchRequest>;
/**
 * @generated from message factmemory.v1.EvaluateBatchResponse
 */
export type EvaluateBatchResponse = Message<"factmemory.v1.EvaluateBatchResponse"> & {
    /**
     * One result per message of the request, in the request's order. Each holds the ops whose evidence is that
     * message; the relationships, identities, success verdict, dropped counts and the call's usage are on the
     * last message that was evaluated by this call. A message evaluated before has its stored result (replayed).
     *
     * @generated from field: repeated factmemory.v1.EvaluateResponse results = 1;
     */
    results: EvaluateResponse[];
    /**
     * What this call cost: llm_calls is 0 when every message had been evaluated before.
     *
     * @generated from field: factmemory.v1.Usage usage = 2;
     */
    usage?: Usage | undefined;
};
/**
 * Describes the message factmemory.v1.EvaluateBatchResponse.
 * Use `create(EvaluateBatchResponseSchema)` to create a new message.
 */
export declare const EvaluateBatchResponseSchema: GenMessage<EvaluateBatchResponse>;
/**
 * @generated from message factmemory.v1.AppliedOp
 */
export type AppliedOp = Message<"factmemory.v1.AppliedOp"> & {
    /**
     * @generated from field: factmemory.v1.OpType op = 1;
     */
    op: OpType;
    /**
     * The fact's state after the op (before it, for a deleted fact).
     *
     * @generated from field: factmemory.v1.Fact fact = 2;
     */
    fact?: Fact | undefined;
    /**
     * An add turned into a strengthen by the write-time check.
     *
     * @generated from field: bool deduplicated = 3;
     */
    deduplicated: boolean;
    /**
     * The fact was deleted (decay below the floor).
     *
     * @generated from field: bool deleted = 4;
     */
    deleted: boolean;
    /**
     * Set when the op created a review candidate.
     *
     * @generated from field: string candidate_id = 5;
     */
    candidateId: string;
    /**
     * The op was not applied; reason says why.
     *
     * @generated from field: bool rejected = 6;
     */
    rejected: boolean;
    /**
     * @generated from field: string reason = 7;
     */
    reason: string;
    /**
     * The handle the model used (D1, C3, ...), if any.
     *
     * @generated from field: string handle = 8;
     */
    handle: string;
    /**
     * merge: the handle and id of the fact folded into `fact` and deleted.
     *
     * @generated from field: string duplicate_handle = 9;
     */
    duplicateHandle: string;
    /**
     * @generated from field: string duplicate_fact_id = 10;
     */
    duplicateFactId: string;
};
/**
 * Describes the message factmemory.v1.AppliedOp.
 * Use `create(AppliedOpSchema)` to create a new message.
 */
export declare const AppliedOpSchema: GenMessage<AppliedOp>;
/**
 * @generated from message factmemory.v1.Relationship
 */
export type Relationship = Message<"factmemory.v1.Relationship"> & {
    /**
     * @generated from field: string source_entity_id = 1;
     */
    sourceEntityId: string;
    /**
     * @generated from field: string target_entity_id = 2;
     */
    targetEntityId: string;
    /**
     * @generated from field: repeated string tags = 3;
     */
    tags: string[];
    /**
     * @generated from field: int32 interaction_count = 4;
     */
    interactionCount: number;
};
/**
 * Describes the message factmemory.v1.Relationship.
 * Use `create(RelationshipSchema)` to create a new message.
 */
export declare const RelationshipSchema: GenMessage<Relationship>;
/**
 * @generated from message factmemory.v1.Identity
 */
export type Identity = Message<"factmemory.v1.Identity"> & {
    /**
     * @generated from field: string entity_id = 1;
     */
    entityId: string;
    /**
     * @generated from field: string platform = 2;
     */
    platform: string;
    /**
     * @generated from field: string handle = 3;
     */
    handle: string;
    /**
     * @generated from field: double confidence = 4;
     */
    confidence: number;
};
/**
 * Describes the message factmemory.v1.Identity.
 * Use `create(IdentitySchema)` to create a new message.
 */
export declare const IdentitySchema: GenMessage<Identity>;
/**
 * @generated from message factmemory.v1.SuccessVerdict
 */
export type SuccessVerdict = Message<"factmemory.v1.SuccessVerdict"> & {
    /**
     * @generated from field: bool completed = 1;
     */
    completed: boolean;
    /**
     * @generated from field: string reason = 2;
     */
    reason: string;
};
/**
 * Describes the message factmemory.v1.SuccessVerdict.
 * Use `create(SuccessVerdictSchema)` to create a new message.
 */
export declare const SuccessVerdictSchema: GenMessage<SuccessVerdict>;
/**
 * @generated from message factmemory.v1.Usage
 */
export type Usage = Message<"factmemory.v1.Usage"> & {
    /**
     * @generated from field: int32 llm_calls = 1;
     */
    llmCalls: number;
    /**
     * @generated from field: int32 prompt_tokens = 2;
     */
    promptTokens: number;
    /**
     * @generated from field: int32 completion_tokens = 3;
     */
    completionTokens: number;
};
/**
 * Describes the message factmemory.v1.Usage.
 * Use `create(UsageSchema)` to create a new message.
 */
export declare const UsageSchema: GenMessage<Usage>;
/**
 * @generated from message factmemory.v1.EvaluateResponse
 */
export type EvaluateResponse = Message<"factmemory.v1.EvaluateResponse"> & {
    /**
     * @generated from field: repeated factmemory.v1.AppliedOp ops = 1;
     */
    ops: AppliedOp[];
    /**
     * @generated from field: repeated factmemory.v1.Relationship relationships = 2;
     */
    relationships: Relationship[];
    /**
     * @generated from field: repeated factmemory.v1.Identity identities = 3;
     */
    identities: Identity[];
    /**
     * @generated from field: factmemory.v1.SuccessVerdict success = 4;
     */
    success?: SuccessVerdict | undefined;
    /**
     * @generated from field: factmemory.v1.Usage usage = 5;
     */
    usage?: Usage | undefined;
    /**
     * True when this message was already evaluated: nothing was applied, the stored result is returned
     * (after the evaluation window, FACTMEMORY_EVALUATION_WINDOW_DAYS, an empty result with the usage it had).
     *
     * @generated from field: bool replayed = 6;
     */
    replayed: boolean;
    /**
     * What the model's reply held beyond the per-message caps and was dropped unread.
     *
     * @generated from field: factmemory.v1.DroppedCounts dropped = 7;
     */
    dropped?: DroppedCounts | undefined;
    /**
     * A replay made no model call: usage is then zero and original_usage holds what the first evaluation cost.
     *
     * @generated from field: factmemory.v1.Usage original_usage = 8;
     */
    originalUsage?: Usage | undefined;
};
/**
 * Describes the message factmemory.v1.EvaluateResponse.
 * Use `create(EvaluateResponseSchema)` to create a new message.
 */
export declare const EvaluateResponseSchema: GenMessage<EvaluateResponse>;
/**
 * @generated from message factmemory.v1.ProvideRequest
 */
export type ProvideRequest = Message<"factmemory.v1.ProvideRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string room_id = 3;
     */
    roomId: string;
    /**
     * Oldest first, the message being answered last. That last message leads the turn's relevance (its vector, its
     * words, the times it names). The (at most four) messages before it count only as much as it leans on them:
     * fully when it has no content word ("when was that?"), partly when it has one or two and points back ("and her
     * sister?"), not at all when it names a topic of its own ("what about my job?", or three content words or
     * more); less with each step back; a message whose entity_id is the agent's counts half.
     *
     * @generated from field: repeated factmemory.v1.ChatMessage recent_messages = 4;
     */
    recentMessages: ChatMessage[];
    /**
     * 0 means the default (6).
     *
     * @generated from field: int32 durable_limit = 5;
     */
    durableLimit: number;
    /**
     * 0 means the default (6).
     *
     * @generated from field: int32 current_limit = 6;
     */
    currentLimit: number;
    /**
     * Used in the section titles instead of "you".
     *
     * @generated from field: string subject_name = 7;
     */
    subjectName: string;
    /**
     * Reference time for ages; default: server time.
     *
     * @generated from field: google.protobuf.Timestamp now = 8;
     */
    now?: Timestamp | undefined;
    /**
     * The world of the turn: its shared facts (and the agent-wide ones) relevant to the turn join the reply as a
     * third section ("What I know about this community:"). Empty: no shared section.
     *
     * @generated from field: string world_id = 9;
     */
    worldId: string;
    /**
     * At most this many shared facts (with total_limit, within that budget); 0 means the default (4).
     *
     * @generated from field: int32 shared_limit = 10;
     */
    sharedLimit: number;
    /**
     * One budget the sections share: at most this many facts in all, given to the most relevant facts whichever
     * section holds them. Each section is ranked within itself and, when it holds a fact relevant to the turn, shows
     * at least its best one; durable_limit and current_limit stay each section's maximum (0: up to total_limit).
     * With world_id the shared section joins the same budget (shared_limit its maximum), so a shared fact takes a
     * slot from the person's sections. 0 means fixed sections: durable_limit + current_limit, and the shared section
     * beside them (the default before this field). The elizaOS plugin sends 12.
     *
     * @generated from field: int32 total_limit = 11;
     */
    totalLimit: number;
};
/**
 * Describes the message factmemory.v1.ProvideRequest.
 * Use `create(ProvideRequestSchema)` to create a new message.
 */
export declare const ProvideRequestSchema: GenMessage<ProvideRequest>;
/**
 * @generated from message factmemory.v1.ScoredFact
 */
export type ScoredFact = Message<"factmemory.v1.ScoredFact"> & {
    /**
     * @generated from field: factmemory.v1.Fact fact = 1;
     */
    fact?: Fact | undefined;
    /**
     * @generated from field: double relevance = 2;
     */
    relevance: number;
    /**
     * @generated from field: double time_weight = 3;
     */
    timeWeight: number;
    /**
     * @generated from field: double score = 4;
     */
    score: number;
};
/**
 * Describes the message factmemory.v1.ScoredFact.
 * Use `create(ScoredFactSchema)` to create a new message.
 */
export declare const ScoredFactSchema: GenMessage<ScoredFact>;
/**
 * @generated from message factmemory.v1.ProvideResponse
 */
export type ProvideResponse = Message<"factmemory.v1.ProvideResponse"> & {
    /**
     * @generated from field: string text = 1;
     */
    text: string;
    /**
     * @generated from field: repeated factmemory.v1.ScoredFact durable = 2;
     */
    durable: ScoredFact[];
    /**
     * @generated from field: repeated factmemory.v1.ScoredFact current = 3;
     */
    current: ScoredFact[];
    /**
     * True when the embedder failed and facts were ranked by full-text match instead.
     *
     * @generated from field: bool degraded = 4;
     */
    degraded: boolean;
    /**
     * @generated from field: string degraded_reason = 5;
     */
    degradedReason: string;
    /**
     * The shared facts shown (of the request's world and agent-wide), best first; their entity_id is the scope's
     * subject (see docs/shared-facts.md).
     *
     * @generated from field: repeated factmemory.v1.ScoredFact shared = 6;
     */
    shared: ScoredFact[];
};
/**
 * Describes the message factmemory.v1.ProvideResponse.
 * Use `create(ProvideResponseSchema)` to create a new message.
 */
export declare const ProvideResponseSchema: GenMessage<ProvideResponse>;
/**
 * @generated from message factmemory.v1.ListFactsRequest
 */
export type ListFactsRequest = Message<"factmemory.v1.ListFactsRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * KIND_UNSPECIFIED lists both kinds.
     *
     * @generated from field: factmemory.v1.Kind kind = 3;
     */
    kind: Kind;
    /**
     * 0 means 100; at most 1000.
     *
     * @generated from field: int32 page_size = 4;
     */
    pageSize: number;
    /**
     * @generated from field: string page_token = 5;
     */
    pageToken: string;
};
/**
 * Describes the message factmemory.v1.ListFactsRequest.
 * Use `create(ListFactsRequestSchema)` to create a new message.
 */
export declare const ListFactsRequestSchema: GenMessage<ListFactsRequest>;
/**
 * @generated from message factmemory.v1.ListFactsResponse
 */
export type ListFactsResponse = Message<"factmemory.v1.ListFactsResponse"> & {
    /**
     * @generated from field: repeated factmemory.v1.Fact facts = 1;
     */
    facts: Fact[];
    /**
     * Empty on the last page.
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message factmemory.v1.ListFactsResponse.
 * Use `create(ListFactsResponseSchema)` to create a new message.
 */
export declare const ListFactsResponseSchema: GenMessage<ListFactsResponse>;
/**
 * @generated from message factmemory.v1.Candidate
 */
export type Candidate = Message<"factmemory.v1.Candidate"> & {
    /**
     * @generated from field: string id = 1;
     */
    id: string;
    /**
     * @generated from field: string agent_id = 2;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 3;
     */
    entityId: string;
    /**
     * The existing fact the candidate would change, as it is now.
     *
     * @generated from field: factmemory.v1.Fact fact = 4;
     */
    fact?: Fact | undefined;
    /**
     * @generated from field: string proposed_claim = 5;
     */
    proposedClaim: string;
    /**
     * @generated from field: string reason = 6;
     */
    reason: string;
    /**
     * "contradict" (the model said so) or "dedup_conflict" (a near-duplicate add with a conflicting detail); also
     * "decay_floor" and "shared_claim" (CandidateSource).
     *
     * @generated from field: string source = 7;
     */
    source: string;
    /**
     * @generated from field: string evidence_message_id = 8;
     */
    evidenceMessageId: string;
    /**
     * @generated from field: factmemory.v1.CandidateStatus status = 9;
     */
    status: CandidateStatus;
    /**
     * @generated from field: google.protobuf.Timestamp created_at = 10;
     */
    createdAt?: Timestamp | undefined;
    /**
     * @generated from field: google.protobuf.Timestamp resolved_at = 11;
     */
    resolvedAt?: Timestamp | undefined;
    /**
     * dedup_conflict: the new fact kept beside `fact` until the candidate is resolved.
     *
     * @generated from field: string related_fact_id = 12;
     */
    relatedFactId: string;
    /**
     * Set once resolved.
     *
     * @generated from field: factmemory.v1.Resolution resolution = 13;
     */
    resolution: Resolution;
    /**
     * "reviewer:<identity>" once resolved.
     *
     * @generated from field: string resolved_by = 14;
     */
    resolvedBy: string;
};
/**
 * Describes the message factmemory.v1.Candidate.
 * Use `create(CandidateSchema)` to create a new message.
 */
export declare const CandidateSchema: GenMessage<Candidate>;
/**
 * @generated from message factmemory.v1.ListCandidatesRequest
 */
export type ListCandidatesRequest = Message<"factmemory.v1.ListCandidatesRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * Empty lists the candidates of every entity of the agent.
     *
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * CANDIDATE_STATUS_UNSPECIFIED lists pending candidates (see any_status).
     *
     * @generated from field: factmemory.v1.CandidateStatus status = 3;
     */
    status: CandidateStatus;
    /**
     * CANDIDATE_SOURCE_UNSPECIFIED lists both sources.
     *
     * @generated from field: factmemory.v1.CandidateSource source = 4;
     */
    source: CandidateSource;
    /**
     * 0 means 100; at most 1000.
     *
     * @generated from field: int32 page_size = 5;
     */
    pageSize: number;
    /**
     * @generated from field: string page_token = 6;
     */
    pageToken: string;
    /**
     * Lists candidates of every status (status is then ignored).
     *
     * @generated from field: bool any_status = 7;
     */
    anyStatus: boolean;
};
/**
 * Describes the message factmemory.v1.ListCandidatesRequest.
 * Use `create(ListCandidatesRequestSchema)` to create a new message.
 */
export declare const ListCandidatesRequestSchema: GenMessage<ListCandidatesRequest>;
/**
 * @generated from message factmemory.v1.ListCandidatesResponse
 */
export type ListCandidatesResponse = Message<"factmemory.v1.ListCandidatesResponse"> & {
    /**
     * Oldest first.
     *
     * @generated from field: repeated factmemory.v1.Candidate candidates = 1;
     */
    candidates: Candidate[];
    /**
     * Empty on the last page.
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message factmemory.v1.ListCandidatesResponse.
 * Use `create(ListCandidatesResponseSchema)` to create a new message.
 */
export declare const ListCandidatesResponseSchema: GenMessage<ListCandidatesResponse>;
/**
 * @generated from message factmemory.v1.ResolveCandidateRequest
 */
export type ResolveCandidateRequest = Message<"factmemory.v1.ResolveCandidateRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string candidate_id = 3;
     */
    candidateId: string;
    /**
     * The first contract's two-valued choice; used when resolution is RESOLUTION_UNSPECIFIED.
     *
     * @generated from field: factmemory.v1.Decision decision = 4;
     */
    decision: Decision;
    /**
     * @generated from field: factmemory.v1.Resolution resolution = 5;
     */
    resolution: Resolution;
    /**
     * Set when the person settles, in the conversation, a candidate their own message raised (a contradict or
     * dedup_conflict whose evidence_message_id is chat.message_id: "that's wrong, I moved to Porto"); any other
     * candidate is FAILED_PRECONDITION. The history names them (see ChatRequest), reason "corrected in the chat".
     *
     * @generated from field: factmemory.v1.ChatRequest chat = 6;
     */
    chat?: ChatRequest | undefined;
    /**
     * Accepting a held shared claim (source shared_claim): share it with every world of the agent (the agent-wide
     * facts) instead of its own world. Only for a claim said in a world named in FACTMEMORY_SHARED_AGENT_WIDE_WORLDS
     * (FAILED_PRECONDITION otherwise, nothing changed); INVALID_ARGUMENT with any other candidate or resolution.
     *
     * @generated from field: bool agent_wide = 7;
     */
    agentWide: boolean;
};
/**
 * Describes the message factmemory.v1.ResolveCandidateRequest.
 * Use `create(ResolveCandidateRequestSchema)` to create a new message.
 */
export declare const ResolveCandidateRequestSchema: GenMessage<ResolveCandidateRequest>;
/**
 * @generated from message factmemory.v1.ResolveCandidateResponse
 */
export type ResolveCandidateResponse = Message<"factmemory.v1.ResolveCandidateResponse"> & {
    /**
     * @generated from field: factmemory.v1.Candidate candidate = 1;
     */
    candidate?: Candidate | undefined;
    /**
     * The fact after the decision.
     *
     * @generated from field: factmemory.v1.Fact fact = 2;
     */
    fact?: Fact | undefined;
};
/**
 * Describes the message factmemory.v1.ResolveCandidateResponse.
 * Use `create(ResolveCandidateResponseSchema)` to create a new message.
 */
export declare const ResolveCandidateResponseSchema: GenMessage<ResolveCandidateResponse>;
/**
 * @generated from message factmemory.v1.ForgetEntityRequest
 */
export type ForgetEntityRequest = Message<"factmemory.v1.ForgetEntityRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * Set when the person themself asked for it in a conversation (see ChatRequest).
     *
     * @generated from field: factmemory.v1.ChatRequest chat = 3;
     */
    chat?: ChatRequest | undefined;
};
/**
 * Describes the message factmemory.v1.ForgetEntityRequest.
 * Use `create(ForgetEntityRequestSchema)` to create a new message.
 */
export declare const ForgetEntityRequestSchema: GenMessage<ForgetEntityRequest>;
/**
 * A change a person asked for about their own memory in a conversation. The change is theirs: the fact's history
 * names them (actor "chat:<entity_id>", reason "deleted in the chat" / "corrected in the chat") instead of the
 * x-factmemory-reviewer, and its audit line says so (via chat). The request's entity_id must be the person who
 * asked: a client never sends an entity named in the text.
 *
 * @generated from message factmemory.v1.ChatRequest
 */
export type ChatRequest = Message<"factmemory.v1.ChatRequest"> & {
    /**
     * The message in which the person asked (or confirmed); recorded in the audit line.
     *
     * @generated from field: string message_id = 1;
     */
    messageId: string;
    /**
     * The person confirmed in a later message (required to delete a health fact).
     *
     * @generated from field: bool confirmed = 2;
     */
    confirmed: boolean;
};
/**
 * Describes the message factmemory.v1.ChatRequest.
 * Use `create(ChatRequestSchema)` to create a new message.
 */
export declare const ChatRequestSchema: GenMessage<ChatRequest>;
/**
 * @generated from message factmemory.v1.FindFactsRequest
 */
export type FindFactsRequest = Message<"factmemory.v1.FindFactsRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * What the person said, as said (at most FACTMEMORY_MAX_TEXT_CHARS).
     *
     * @generated from field: string text = 3;
     */
    text: string;
    /**
     * At most this many facts in all; 0 means 10; at most twice FACTMEMORY_MAX_PROVIDE_LIMIT.
     *
     * @generated from field: int32 limit = 4;
     */
    limit: number;
    /**
     * Reference time for ages; default: server time.
     *
     * @generated from field: google.protobuf.Timestamp now = 5;
     */
    now?: Timestamp | undefined;
};
/**
 * Describes the message factmemory.v1.FindFactsRequest.
 * Use `create(FindFactsRequestSchema)` to create a new message.
 */
export declare const FindFactsRequestSchema: GenMessage<FindFactsRequest>;
/**
 * @generated from message factmemory.v1.FindFactsResponse
 */
export type FindFactsResponse = Message<"factmemory.v1.FindFactsResponse"> & {
    /**
     * Facts that share a content word with the text (words that only make the request, such as "forget",
     * "remember" or "wrong", aside; a verb common in claims, such as "like" or "live", only when the fact holds every
     * word of the text's topic), best first.
     *
     * @generated from field: repeated factmemory.v1.ScoredFact matches = 1;
     */
    matches: ScoredFact[];
    /**
     * The other facts ranked nearest the text, best first (no word in common).
     *
     * @generated from field: repeated factmemory.v1.ScoredFact near = 2;
     */
    near: ScoredFact[];
};
/**
 * Describes the message factmemory.v1.FindFactsResponse.
 * Use `create(FindFactsResponseSchema)` to create a new message.
 */
export declare const FindFactsResponseSchema: GenMessage<FindFactsResponse>;
/**
 * @generated from message factmemory.v1.ForgetEntityResponse
 */
export type ForgetEntityResponse = Message<"factmemory.v1.ForgetEntityResponse"> & {
    /**
     * @generated from field: int32 facts_deleted = 1;
     */
    factsDeleted: number;
    /**
     * @generated from field: int32 candidates_deleted = 2;
     */
    candidatesDeleted: number;
    /**
     * @generated from field: int32 relationships_deleted = 3;
     */
    relationshipsDeleted: number;
    /**
     * @generated from field: int32 identities_deleted = 4;
     */
    identitiesDeleted: number;
    /**
     * @generated from field: int32 evaluations_deleted = 5;
     */
    evaluationsDeleted: number;
};
/**
 * Describes the message factmemory.v1.ForgetEntityResponse.
 * Use `create(ForgetEntityResponseSchema)` to create a new message.
 */
export declare const ForgetEntityResponseSchema: GenMessage<ForgetEntityResponse>;
/**
 * @generated from message factmemory.v1.ExportEntityRequest
 */
export type ExportEntityRequest = Message<"factmemory.v1.ExportEntityRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * Empty for the first page; then the previous response's next_page_token.
     *
     * @generated from field: string page_token = 3;
     */
    pageToken: string;
};
/**
 * Describes the message factmemory.v1.ExportEntityRequest.
 * Use `create(ExportEntityRequestSchema)` to create a new message.
 */
export declare const ExportEntityRequestSchema: GenMessage<ExportEntityRequest>;
/**
 * @generated from message factmemory.v1.ExportEntityResponse
 */
export type ExportEntityResponse = Message<"factmemory.v1.ExportEntityResponse"> & {
    /**
     * Everything stored about the entity: facts (without embeddings), candidates, relationships, identities, evaluations.
     * An entity larger than FACTMEMORY_MAX_RESPONSE_BYTES comes in pages: each is a document of the same shape
     * holding the next items of each list; concatenate the lists of all pages.
     *
     * @generated from field: string json = 1;
     */
    json: string;
    /**
     * Empty on the last page (an entity that fits in one response has one page, as before).
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message factmemory.v1.ExportEntityResponse.
 * Use `create(ExportEntityResponseSchema)` to create a new message.
 */
export declare const ExportEntityResponseSchema: GenMessage<ExportEntityResponse>;
/**
 * Items of one model reply beyond the per-message caps (FACTMEMORY_MAX_*_PER_MESSAGE), dropped unread.
 *
 * @generated from message factmemory.v1.DroppedCounts
 */
export type DroppedCounts = Message<"factmemory.v1.DroppedCounts"> & {
    /**
     * @generated from field: uint32 ops = 1;
     */
    ops: number;
    /**
     * @generated from field: uint32 relationships = 2;
     */
    relationships: number;
    /**
     * @generated from field: uint32 identities = 3;
     */
    identities: number;
};
/**
 * Describes the message factmemory.v1.DroppedCounts.
 * Use `create(DroppedCountsSchema)` to create a new message.
 */
export declare const DroppedCountsSchema: GenMessage<DroppedCounts>;
/**
 * @generated from message factmemory.v1.HistoryEntry
 */
export type HistoryEntry = Message<"factmemory.v1.HistoryEntry"> & {
    /**
     * @generated from field: string id = 1;
     */
    id: string;
    /**
     * @generated from field: string fact_id = 2;
     */
    factId: string;
    /**
     * @generated from field: google.protobuf.Timestamp at = 3;
     */
    at?: Timestamp | undefined;
    /**
     * @generated from field: factmemory.v1.HistoryAction action = 4;
     */
    action: HistoryAction;
    /**
     * "message:<message id>" for evaluations, "reviewer:<identity>" for people, "import:<source>" for imports,
     * "chat:<entity id>" for the person themself asking in a conversation (ChatRequest).
     *
     * @generated from field: string actor = 5;
     */
    actor: string;
    /**
     * @generated from field: string reason = 6;
     */
    reason: string;
    /**
     * The fact's claim, category, kind, confidence and verification_status before and after; absent before a
     * creation and after a deletion.
     *
     * @generated from field: google.protobuf.Struct before = 7;
     */
    before?: JsonObject | undefined;
    /**
     * @generated from field: google.protobuf.Struct after = 8;
     */
    after?: JsonObject | undefined;
};
/**
 * Describes the message factmemory.v1.HistoryEntry.
 * Use `create(HistoryEntrySchema)` to create a new message.
 */
export declare const HistoryEntrySchema: GenMessage<HistoryEntry>;
/**
 * @generated from message factmemory.v1.AddFactRequest
 */
export type AddFactRequest = Message<"factmemory.v1.AddFactRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: factmemory.v1.Kind kind = 3;
     */
    kind: Kind;
    /**
     * @generated from field: string category = 4;
     */
    category: string;
    /**
     * @generated from field: string claim = 5;
     */
    claim: string;
    /**
     * Default 0.9.
     *
     * @generated from field: optional double confidence = 6;
     */
    confidence?: number | undefined;
    /**
     * @generated from field: google.protobuf.Struct structured_fields = 7;
     */
    structuredFields?: JsonObject | undefined;
};
/**
 * Describes the message factmemory.v1.AddFactRequest.
 * Use `create(AddFactRequestSchema)` to create a new message.
 */
export declare const AddFactRequestSchema: GenMessage<AddFactRequest>;
/**
 * @generated from message factmemory.v1.AddFactResponse
 */
export type AddFactResponse = Message<"factmemory.v1.AddFactResponse"> & {
    /**
     * @generated from field: factmemory.v1.Fact fact = 1;
     */
    fact?: Fact | undefined;
};
/**
 * Describes the message factmemory.v1.AddFactResponse.
 * Use `create(AddFactResponseSchema)` to create a new message.
 */
export declare const AddFactResponseSchema: GenMessage<AddFactResponse>;
/**
 * @generated from message factmemory.v1.UpdateFactRequest
 */
export type UpdateFactRequest = Message<"factmemory.v1.UpdateFactRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string fact_id = 3;
     */
    factId: string;
    /**
     * Unset fields stay as they are.
     *
     * @generated from field: optional string claim = 4;
     */
    claim?: string | undefined;
    /**
     * @generated from field: optional string category = 5;
     */
    category?: string | undefined;
    /**
     * KIND_UNSPECIFIED keeps the kind; a new kind needs a category of that kind.
     *
     * @generated from field: factmemory.v1.Kind kind = 6;
     */
    kind: Kind;
    /**
     * @generated from field: optional double confidence = 7;
     */
    confidence?: number | undefined;
    /**
     * VERIFICATION_STATUS_UNSPECIFIED keeps it.
     *
     * @generated from field: factmemory.v1.VerificationStatus verification_status = 8;
     */
    verificationStatus: VerificationStatus;
    /**
     * Set when the person themself corrected the fact in a conversation (see ChatRequest).
     *
     * @generated from field: factmemory.v1.ChatRequest chat = 9;
     */
    chat?: ChatRequest | undefined;
};
/**
 * Describes the message factmemory.v1.UpdateFactRequest.
 * Use `create(UpdateFactRequestSchema)` to create a new message.
 */
export declare const UpdateFactRequestSchema: GenMessage<UpdateFactRequest>;
/**
 * @generated from message factmemory.v1.UpdateFactResponse
 */
export type UpdateFactResponse = Message<"factmemory.v1.UpdateFactResponse"> & {
    /**
     * @generated from field: factmemory.v1.Fact fact = 1;
     */
    fact?: Fact | undefined;
};
/**
 * Describes the message factmemory.v1.UpdateFactResponse.
 * Use `create(UpdateFactResponseSchema)` to create a new message.
 */
export declare const UpdateFactResponseSchema: GenMessage<UpdateFactResponse>;
/**
 * @generated from message factmemory.v1.DeleteFactRequest
 */
export type DeleteFactRequest = Message<"factmemory.v1.DeleteFactRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string fact_id = 3;
     */
    factId: string;
    /**
     * Set when the person themself asked for it in a conversation (see ChatRequest). A health fact is then deleted
     * only with chat.confirmed (FAILED_PRECONDITION otherwise, nothing deleted).
     *
     * @generated from field: factmemory.v1.ChatRequest chat = 4;
     */
    chat?: ChatRequest | undefined;
};
/**
 * Describes the message factmemory.v1.DeleteFactRequest.
 * Use `create(DeleteFactRequestSchema)` to create a new message.
 */
export declare const DeleteFactRequestSchema: GenMessage<DeleteFactRequest>;
/**
 * @generated from message factmemory.v1.DeleteFactResponse
 */
export type DeleteFactResponse = Message<"factmemory.v1.DeleteFactResponse"> & {};
/**
 * Describes the message factmemory.v1.DeleteFactResponse.
 * Use `create(DeleteFactResponseSchema)` to create a new message.
 */
export declare const DeleteFactResponseSchema: GenMessage<DeleteFactResponse>;
/**
 * @generated from message factmemory.v1.GetFactRequest
 */
export type GetFactRequest = Message<"factmemory.v1.GetFactRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string fact_id = 3;
     */
    factId: string;
};
/**
 * Describes the message factmemory.v1.GetFactRequest.
 * Use `create(GetFactRequestSchema)` to create a new message.
 */
export declare const GetFactRequestSchema: GenMessage<GetFactRequest>;
/**
 * @generated from message factmemory.v1.GetFactResponse
 */
export type GetFactResponse = Message<"factmemory.v1.GetFactResponse"> & {
    /**
     * Absent when the fact was deleted (its history remains).
     *
     * @generated from field: factmemory.v1.Fact fact = 1;
     */
    fact?: Fact | undefined;
    /**
     * Oldest first.
     *
     * @generated from field: repeated factmemory.v1.HistoryEntry history = 2;
     */
    history: HistoryEntry[];
};
/**
 * Describes the message factmemory.v1.GetFactResponse.
 * Use `create(GetFactResponseSchema)` to create a new message.
 */
export declare const GetFactResponseSchema: GenMessage<GetFactResponse>;
/**
 * @generated from message factmemory.v1.ListEntitiesRequest
 */
export type ListEntitiesRequest = Message<"factmemory.v1.ListEntitiesRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * Matches the start of an entity id or any part of the entity's name (case-insensitive); empty matches all.
     *
     * @generated from field: string query = 2;
     */
    query: string;
    /**
     * 0 means 100; at most 1000.
     *
     * @generated from field: int32 page_size = 3;
     */
    pageSize: number;
    /**
     * @generated from field: string page_token = 4;
     */
    pageToken: string;
};
/**
 * Describes the message factmemory.v1.ListEntitiesRequest.
 * Use `create(ListEntitiesRequestSchema)` to create a new message.
 */
export declare const ListEntitiesRequestSchema: GenMessage<ListEntitiesRequest>;
/**
 * @generated from message factmemory.v1.EntitySummary
 */
export type EntitySummary = Message<"factmemory.v1.EntitySummary"> & {
    /**
     * @generated from field: string entity_id = 1;
     */
    entityId: string;
    /**
     * The name the entity last used in a message; empty when unknown.
     *
     * @generated from field: string name = 2;
     */
    name: string;
    /**
     * @generated from field: int32 durable_facts = 3;
     */
    durableFacts: number;
    /**
     * @generated from field: int32 current_facts = 4;
     */
    currentFacts: number;
    /**
     * @generated from field: int32 pending_candidates = 5;
     */
    pendingCandidates: number;
    /**
     * @generated from field: google.protobuf.Timestamp last_activity = 6;
     */
    lastActivity?: Timestamp | undefined;
    /**
     * A person, or one of a community's shared subjects (docs/shared-facts.md).
     *
     * @generated from field: factmemory.v1.EntityKind kind = 7;
     */
    kind: EntityKind;
    /**
     * The world of a world's or held subject; empty for a person and the agent-wide subject.
     *
     * @generated from field: string world_id = 8;
     */
    worldId: string;
    /**
     * That world's name as a caller last gave it (EvaluateRequest.world_name); empty for a person, the agent-wide
     * subject and a world never named. A named community's `name` is this name; an unnamed one's is a label
     * ("shared: world <id>", "held for review: world <id>", "shared: agent-wide").
     *
     * @generated from field: string world_name = 9;
     */
    worldName: string;
};
/**
 * Describes the message factmemory.v1.EntitySummary.
 * Use `create(EntitySummarySchema)` to create a new message.
 */
export declare const EntitySummarySchema: GenMessage<EntitySummary>;
/**
 * @generated from message factmemory.v1.ListEntitiesResponse
 */
export type ListEntitiesResponse = Message<"factmemory.v1.ListEntitiesResponse"> & {
    /**
     * Most recent activity first.
     *
     * @generated from field: repeated factmemory.v1.EntitySummary entities = 1;
     */
    entities: EntitySummary[];
    /**
     * Empty on the last page.
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message factmemory.v1.ListEntitiesResponse.
 * Use `create(ListEntitiesResponseSchema)` to create a new message.
 */
export declare const ListEntitiesResponseSchema: GenMessage<ListEntitiesResponse>;
/**
 * One message of the prompt for the caller's model, in order.
 *
 * @generated from message factmemory.v1.PromptMessage
 */
export type PromptMessage = Message<"factmemory.v1.PromptMessage"> & {
    /**
     * "system" or "user".
     *
     * @generated from field: string role = 1;
     */
    role: string;
    /**
     * @generated from field: string content = 2;
     */
    content: string;
};
/**
 * Describes the message factmemory.v1.PromptMessage.
 * Use `create(PromptMessageSchema)` to create a new message.
 */
export declare const PromptMessageSchema: GenMessage<PromptMessage>;
/**
 * @generated from message factmemory.v1.PrepareEvaluationRequest
 */
export type PrepareEvaluationRequest = Message<"factmemory.v1.PrepareEvaluationRequest"> & {
    /**
     * @generated from oneof factmemory.v1.PrepareEvaluationRequest.request
     */
    request: {
        /**
         * One message, as for Evaluate.
         *
         * @generated from field: factmemory.v1.EvaluateRequest single = 1;
         */
        value: EvaluateRequest;
        case: "single";
    } | {
        /**
         * Several messages of one person, as for EvaluateBatch.
         *
         * @generated from field: factmemory.v1.EvaluateBatchRequest batch = 2;
         */
        value: EvaluateBatchRequest;
        case: "batch";
    } | {
        case: undefined;
        value?: undefined;
    };
};
/**
 * Describes the message factmemory.v1.PrepareEvaluationRequest.
 * Use `create(PrepareEvaluationRequestSchema)` to create a new message.
 */
export declare const PrepareEvaluationRequestSchema: GenMessage<PrepareEvaluationRequest>;
/**
 * @generated from message factmemory.v1.PrepareEvaluationResponse
 */
export type PrepareEvaluationResponse = Message<"factmemory.v1.PrepareEvaluationResponse"> & {
    /**
     * Empty when no model call is needed (results then holds the stored results). Single-use, 256 random bits.
     *
     * @generated from field: string ticket = 1;
     */
    ticket: string;
    /**
     * The prompt to send to the model at temperature 0, in order.
     *
     * @generated from field: repeated factmemory.v1.PromptMessage prompt = 2;
     */
    prompt: PromptMessage[];
    /**
     * The JSON schema the reply must follow, as JSON text; schema_name names it for structured-output APIs
     * (strict). A model without structured output: append to the system message "Answer with the JSON object only.
     * Its JSON schema:" and the schema, as the service itself does when its endpoint has no structured output.
     *
     * @generated from field: string json_schema = 3;
     */
    jsonSchema: string;
    /**
     * @generated from field: string schema_name = 4;
     */
    schemaName: string;
    /**
     * When the ticket stops being accepted.
     *
     * @generated from field: google.protobuf.Timestamp expires_at = 5;
     */
    expiresAt?: Timestamp | undefined;
    /**
     * Set only when no ticket is issued: one stored result per message, in the request's order (replayed).
     *
     * @generated from field: repeated factmemory.v1.EvaluateResponse results = 6;
     */
    results: EvaluateResponse[];
};
/**
 * Describes the message factmemory.v1.PrepareEvaluationResponse.
 * Use `create(PrepareEvaluationResponseSchema)` to create a new message.
 */
export declare const PrepareEvaluationResponseSchema: GenMessage<PrepareEvaluationResponse>;
/**
 * @generated from message factmemory.v1.CompleteEvaluationRequest
 */
export type CompleteEvaluationRequest = Message<"factmemory.v1.CompleteEvaluationRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * @generated from field: string ticket = 3;
     */
    ticket: string;
    /**
     * The model's reply as it came (a JSON object, possibly wrapped in prose or a code fence).
     *
     * @generated from field: string reply = 4;
     */
    reply: string;
    /**
     * What the caller's model call cost, when known; reported back in the results' usage.
     *
     * @generated from field: factmemory.v1.Usage usage = 5;
     */
    usage?: Usage | undefined;
};
/**
 * Describes the message factmemory.v1.CompleteEvaluationRequest.
 * Use `create(CompleteEvaluationRequestSchema)` to create a new message.
 */
export declare const CompleteEvaluationRequestSchema: GenMessage<CompleteEvaluationRequest>;
/**
 * @generated from message factmemory.v1.CompleteEvaluationResponse
 */
export type CompleteEvaluationResponse = Message<"factmemory.v1.CompleteEvaluationResponse"> & {
    /**
     * One result per message of the prepared request, in its order (a single message gives one result).
     *
     * @generated from field: repeated factmemory.v1.EvaluateResponse results = 1;
     */
    results: EvaluateResponse[];
    /**
     * @generated from field: factmemory.v1.Usage usage = 2;
     */
    usage?: Usage | undefined;
};
/**
 * Describes the message factmemory.v1.CompleteEvaluationResponse.
 * Use `create(CompleteEvaluationResponseSchema)` to create a new message.
 */
export declare const CompleteEvaluationResponseSchema: GenMessage<CompleteEvaluationResponse>;
/**
 * @generated from message factmemory.v1.ForgetMessagesRequest
 */
export type ForgetMessagesRequest = Message<"factmemory.v1.ForgetMessagesRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * The person whose messages were deleted. Empty only together with room_id: every person of the agent.
     *
     * @generated from field: string entity_id = 2;
     */
    entityId: string;
    /**
     * The deleted messages' ids (at most 1000 per call).
     *
     * @generated from field: repeated string message_ids = 3;
     */
    messageIds: string[];
    /**
     * A cleared channel: every message the service evaluated in this room (of entity_id, when set).
     *
     * @generated from field: string room_id = 4;
     */
    roomId: string;
};
/**
 * Describes the message factmemory.v1.ForgetMessagesRequest.
 * Use `create(ForgetMessagesRequestSchema)` to create a new message.
 */
export declare const ForgetMessagesRequestSchema: GenMessage<ForgetMessagesRequest>;
/**
 * @generated from message factmemory.v1.ForgetMessagesResponse
 */
export type ForgetMessagesResponse = Message<"factmemory.v1.ForgetMessagesResponse"> & {
    /**
     * Messages newly forgotten (0 on a repeat).
     *
     * @generated from field: int32 messages_forgotten = 1;
     */
    messagesForgotten: number;
    /**
     * Facts deleted because their only evidence was deleted.
     *
     * @generated from field: int32 facts_deleted = 2;
     */
    factsDeleted: number;
    /**
     * Facts that kept other evidence and had their support recounted.
     *
     * @generated from field: int32 facts_updated = 3;
     */
    factsUpdated: number;
    /**
     * Review items raised by the deleted messages that were closed.
     *
     * @generated from field: int32 candidates_closed = 4;
     */
    candidatesClosed: number;
};
/**
 * Describes the message factmemory.v1.ForgetMessagesResponse.
 * Use `create(ForgetMessagesResponseSchema)` to create a new message.
 */
export declare const ForgetMessagesResponseSchema: GenMessage<ForgetMessagesResponse>;
/**
 * @generated from message factmemory.v1.RegisterAgentRequest
 */
export type RegisterAgentRequest = Message<"factmemory.v1.RegisterAgentRequest"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * The character's name, shown by the review page and accepted by the CLI.
     *
     * @generated from field: string name = 2;
     */
    name: string;
};
/**
 * Describes the message factmemory.v1.RegisterAgentRequest.
 * Use `create(RegisterAgentRequestSchema)` to create a new message.
 */
export declare const RegisterAgentRequestSchema: GenMessage<RegisterAgentRequest>;
/**
 * @generated from message factmemory.v1.RegisterAgentResponse
 */
export type RegisterAgentResponse = Message<"factmemory.v1.RegisterAgentResponse"> & {};
/**
 * Describes the message factmemory.v1.RegisterAgentResponse.
 * Use `create(RegisterAgentResponseSchema)` to create a new message.
 */
export declare const RegisterAgentResponseSchema: GenMessage<RegisterAgentResponse>;
/**
 * @generated from message factmemory.v1.ListAgentsRequest
 */
export type ListAgentsRequest = Message<"factmemory.v1.ListAgentsRequest"> & {
    /**
     * Matches any part of the agent's name or the start of its id (case-insensitive); empty matches all.
     *
     * @generated from field: string query = 1;
     */
    query: string;
    /**
     * 0 means 100; at most 1000.
     *
     * @generated from field: int32 page_size = 2;
     */
    pageSize: number;
    /**
     * @generated from field: string page_token = 3;
     */
    pageToken: string;
};
/**
 * Describes the message factmemory.v1.ListAgentsRequest.
 * Use `create(ListAgentsRequestSchema)` to create a new message.
 */
export declare const ListAgentsRequestSchema: GenMessage<ListAgentsRequest>;
/**
 * @generated from message factmemory.v1.AgentSummary
 */
export type AgentSummary = Message<"factmemory.v1.AgentSummary"> & {
    /**
     * @generated from field: string agent_id = 1;
     */
    agentId: string;
    /**
     * Empty when the agent never registered a name.
     *
     * @generated from field: string name = 2;
     */
    name: string;
    /**
     * People only (a community's shared subjects are counted in communities).
     *
     * @generated from field: int32 entities = 3;
     */
    entities: number;
    /**
     * @generated from field: int32 facts = 4;
     */
    facts: number;
    /**
     * @generated from field: int32 pending_candidates = 5;
     */
    pendingCandidates: number;
    /**
     * @generated from field: google.protobuf.Timestamp last_activity = 6;
     */
    lastActivity?: Timestamp | undefined;
    /**
     * The worlds with shared facts or held claims, and the agent-wide shared facts when there are any.
     *
     * @generated from field: int32 communities = 7;
     */
    communities: number;
};
/**
 * Describes the message factmemory.v1.AgentSummary.
 * Use `create(AgentSummarySchema)` to create a new message.
 */
export declare const AgentSummarySchema: GenMessage<AgentSummary>;
/**
 * @generated from message factmemory.v1.ListAgentsResponse
 */
export type ListAgentsResponse = Message<"factmemory.v1.ListAgentsResponse"> & {
    /**
     * Most recent activity first.
     *
     * @generated from field: repeated factmemory.v1.AgentSummary agents = 1;
     */
    agents: AgentSummary[];
    /**
     * Empty on the last page.
     *
     * @generated from field: string next_page_token = 2;
     */
    nextPageToken: string;
};
/**
 * Describes the message factmemory.v1.ListAgentsResponse.
 * Use `create(ListAgentsResponseSchema)` to create a new message.
 */
export declare const ListAgentsResponseSchema: GenMessage<ListAgentsResponse>;
/**
 * @generated from message factmemory.v1.GetLimitsRequest
 */
export type GetLimitsRequest = Message<"factmemory.v1.GetLimitsRequest"> & {};
/**
 * Describes the message factmemory.v1.GetLimitsRequest.
 * Use `create(GetLimitsRequestSchema)` to create a new message.
 */
export declare const GetLimitsRequestSchema: GenMessage<GetLimitsRequest>;
/**
 * Every count is per request; every length is in characters (Unicode code points).
 *
 * @generated from message factmemory.v1.GetLimitsResponse
 */
export type GetLimitsResponse = Message<"factmemory.v1.GetLimitsResponse"> & {
    /**
     * ChatMessage.text.
     *
     * @generated from field: int32 max_text_chars = 1;
     */
    maxTextChars: number;
    /**
     * ChatMessage.name, a room entity's name, subject_name and each of speaker_roles.
     *
     * @generated from field: int32 max_name_chars = 2;
     */
    maxNameChars: number;
    /**
     * recent_messages, and agent_responses, each.
     *
     * @generated from field: int32 max_recent_messages = 3;
     */
    maxRecentMessages: number;
    /**
     * EvaluateBatchRequest.messages.
     *
     * @generated from field: int32 max_batch_messages = 4;
     */
    maxBatchMessages: number;
    /**
     * room_entities.
     *
     * @generated from field: int32 max_room_entities = 5;
     */
    maxRoomEntities: number;
    /**
     * The names of one room entity that are kept (beyond them names are dropped, not refused).
     *
     * @generated from field: int32 max_names_per_entity = 6;
     */
    maxNamesPerEntity: number;
    /**
     * ProvideRequest.durable_limit and current_limit; total_limit is at most twice this.
     *
     * @generated from field: int32 max_provide_limit = 7;
     */
    maxProvideLimit: number;
    /**
     * speaker_roles.
     *
     * @generated from field: int32 max_speaker_roles = 8;
     */
    maxSpeakerRoles: number;
    /**
     * Every id given as text (message ids, entity ids of a message or a room entity).
     *
     * @generated from field: int32 max_id_chars = 9;
     */
    maxIdChars: number;
};
/**
 * Describes the message factmemory.v1.GetLimitsResponse.
 * Use `create(GetLimitsResponseSchema)` to create a new message.
 */
export declare const GetLimitsResponseSchema: GenMessage<GetLimitsResponse>;
/**
 * Which parts of the merged post-turn evaluation to run.
 *
 * @generated from enum factmemory.v1.Item
 */
export declare enum Item {
    /**
     * @generated from enum value: ITEM_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: ITEM_FACTS = 1;
     */
    FACTS = 1,
    /**
     * @generated from enum value: ITEM_RELATIONSHIPS = 2;
     */
    RELATIONSHIPS = 2,
    /**
     * @generated from enum value: ITEM_IDENTITIES = 3;
     */
    IDENTITIES = 3,
    /**
     * @generated from enum value: ITEM_SUCCESS = 4;
     */
    SUCCESS = 4
}
/**
 * Describes the enum factmemory.v1.Item.
 */
export declare const ItemSchema: GenEnum<Item>;
/**
 * @generated from enum factmemory.v1.Kind
 */
export declare enum Kind {
    /**
     * @generated from enum value: KIND_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Who someone is; no time decay.
     *
     * @generated from enum value: KIND_DURABLE = 1;
     */
    DURABLE = 1,
    /**
     * State right now; weighted by age.
     *
     * @generated from enum value: KIND_CURRENT = 2;
     */
    CURRENT = 2
}
/**
 * Describes the enum factmemory.v1.Kind.
 */
export declare const KindSchema: GenEnum<Kind>;
/**
 * @generated from enum factmemory.v1.OpType
 */
export declare enum OpType {
    /**
     * @generated from enum value: OP_TYPE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: OP_TYPE_ADD_DURABLE = 1;
     */
    ADD_DURABLE = 1,
    /**
     * @generated from enum value: OP_TYPE_ADD_CURRENT = 2;
     */
    ADD_CURRENT = 2,
    /**
     * @generated from enum value: OP_TYPE_STRENGTHEN = 3;
     */
    STRENGTHEN = 3,
    /**
     * @generated from enum value: OP_TYPE_DECAY = 4;
     */
    DECAY = 4,
    /**
     * @generated from enum value: OP_TYPE_CONTRADICT = 5;
     */
    CONTRADICT = 5,
    /**
     * Two shown facts of one kind that say the same thing: the duplicate is folded into the kept fact and deleted.
     *
     * @generated from enum value: OP_TYPE_MERGE = 6;
     */
    MERGE = 6
}
/**
 * Describes the enum factmemory.v1.OpType.
 */
export declare const OpTypeSchema: GenEnum<OpType>;
/**
 * @generated from enum factmemory.v1.VerificationStatus
 */
export declare enum VerificationStatus {
    /**
     * @generated from enum value: VERIFICATION_STATUS_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: VERIFICATION_STATUS_SELF_REPORTED = 1;
     */
    SELF_REPORTED = 1,
    /**
     * @generated from enum value: VERIFICATION_STATUS_CONFIRMED = 2;
     */
    CONFIRMED = 2,
    /**
     * @generated from enum value: VERIFICATION_STATUS_CONTRADICTED = 3;
     */
    CONTRADICTED = 3
}
/**
 * Describes the enum factmemory.v1.VerificationStatus.
 */
export declare const VerificationStatusSchema: GenEnum<VerificationStatus>;
/**
 * @generated from enum factmemory.v1.CandidateStatus
 */
export declare enum CandidateStatus {
    /**
     * @generated from enum value: CANDIDATE_STATUS_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: CANDIDATE_STATUS_PENDING = 1;
     */
    PENDING = 1,
    /**
     * @generated from enum value: CANDIDATE_STATUS_ACCEPTED = 2;
     */
    ACCEPTED = 2,
    /**
     * @generated from enum value: CANDIDATE_STATUS_REJECTED = 3;
     */
    REJECTED = 3
}
/**
 * Describes the enum factmemory.v1.CandidateStatus.
 */
export declare const CandidateStatusSchema: GenEnum<CandidateStatus>;
/**
 * @generated from enum factmemory.v1.Decision
 */
export declare enum Decision {
    /**
     * @generated from enum value: DECISION_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * Replace the fact's claim with the proposed one.
     *
     * @generated from enum value: DECISION_ACCEPT = 1;
     */
    ACCEPT = 1,
    /**
     * Close the candidate; the fact stays as it is.
     *
     * @generated from enum value: DECISION_REJECT = 2;
     */
    REJECT = 2
}
/**
 * Describes the enum factmemory.v1.Decision.
 */
export declare const DecisionSchema: GenEnum<Decision>;
/**
 * How a reviewer settles a candidate. contradict: ACCEPT, REJECT, KEEP_BOTH.
 * dedup_conflict: KEEP_BOTH, KEEP_NEW, KEEP_OLD, MERGE (ACCEPT means MERGE and REJECT means KEEP_OLD there).
 *
 * @generated from enum factmemory.v1.Resolution
 */
export declare enum Resolution {
    /**
     * @generated from enum value: RESOLUTION_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The fact takes the proposed claim (the old claim joins previous_claims).
     *
     * @generated from enum value: RESOLUTION_ACCEPT = 1;
     */
    ACCEPT = 1,
    /**
     * The fact stays as it is.
     *
     * @generated from enum value: RESOLUTION_REJECT = 2;
     */
    REJECT = 2,
    /**
     * Both are true: contradict adds the proposed claim as a new fact; dedup_conflict keeps the two facts and
     * never flags them against each other again.
     *
     * @generated from enum value: RESOLUTION_KEEP_BOTH = 3;
     */
    KEEP_BOTH = 3,
    /**
     * dedup_conflict: the new fact stays, the old one is deleted.
     *
     * @generated from enum value: RESOLUTION_KEEP_NEW = 4;
     */
    KEEP_NEW = 4,
    /**
     * dedup_conflict: the old fact stays, the new one is deleted.
     *
     * @generated from enum value: RESOLUTION_KEEP_OLD = 5;
     */
    KEEP_OLD = 5,
    /**
     * dedup_conflict: the old fact takes the new claim and evidence; the new fact is folded into it.
     *
     * @generated from enum value: RESOLUTION_MERGE = 6;
     */
    MERGE = 6
}
/**
 * Describes the enum factmemory.v1.Resolution.
 */
export declare const ResolutionSchema: GenEnum<Resolution>;
/**
 * @generated from enum factmemory.v1.CandidateSource
 */
export declare enum CandidateSource {
    /**
     * @generated from enum value: CANDIDATE_SOURCE_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * The model said a known fact is no longer true.
     *
     * @generated from enum value: CANDIDATE_SOURCE_CONTRADICT = 1;
     */
    CONTRADICT = 1,
    /**
     * A near-duplicate add with a conflicting detail, kept beside the existing fact.
     *
     * @generated from enum value: CANDIDATE_SOURCE_DEDUP_CONFLICT = 2;
     */
    DEDUP_CONFLICT = 2,
    /**
     * The model decayed a confirmed or health fact to below the deletion floor: the fact is kept as it was and a
     * reviewer decides (accept deletes it, reject keeps it).
     *
     * @generated from enum value: CANDIDATE_SOURCE_DECAY_FLOOR = 3;
     */
    DECAY_FLOOR = 3,
    /**
     * A shared claim (about a world) from a speaker not trusted to teach: held apart, shown to nobody, until a
     * reviewer accepts it (it then becomes a shared fact of its world) or rejects it (it is deleted).
     *
     * @generated from enum value: CANDIDATE_SOURCE_SHARED_CLAIM = 4;
     */
    SHARED_CLAIM = 4
}
/**
 * Describes the enum factmemory.v1.CandidateSource.
 */
export declare const CandidateSourceSchema: GenEnum<CandidateSource>;
/**
 * @generated from enum factmemory.v1.HistoryAction
 */
export declare enum HistoryAction {
    /**
     * @generated from enum value: HISTORY_ACTION_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: HISTORY_ACTION_CREATED = 1;
     */
    CREATED = 1,
    /**
     * @generated from enum value: HISTORY_ACTION_STRENGTHENED = 2;
     */
    STRENGTHENED = 2,
    /**
     * @generated from enum value: HISTORY_ACTION_DECAYED = 3;
     */
    DECAYED = 3,
    /**
     * @generated from enum value: HISTORY_ACTION_CONTRADICTED = 4;
     */
    CONTRADICTED = 4,
    /**
     * @generated from enum value: HISTORY_ACTION_MERGED = 5;
     */
    MERGED = 5,
    /**
     * @generated from enum value: HISTORY_ACTION_CANDIDATE_ACCEPTED = 6;
     */
    CANDIDATE_ACCEPTED = 6,
    /**
     * @generated from enum value: HISTORY_ACTION_CANDIDATE_REJECTED = 7;
     */
    CANDIDATE_REJECTED = 7,
    /**
     * @generated from enum value: HISTORY_ACTION_KEPT_BOTH = 8;
     */
    KEPT_BOTH = 8,
    /**
     * @generated from enum value: HISTORY_ACTION_EDITED = 9;
     */
    EDITED = 9,
    /**
     * @generated from enum value: HISTORY_ACTION_DELETED = 10;
     */
    DELETED = 10,
    /**
     * @generated from enum value: HISTORY_ACTION_RECLASSIFIED = 11;
     */
    RECLASSIFIED = 11,
    /**
     * @generated from enum value: HISTORY_ACTION_IMPORTED = 12;
     */
    IMPORTED = 12,
    /**
     * @generated from enum value: HISTORY_ACTION_ARCHIVED = 13;
     */
    ARCHIVED = 13
}
/**
 * Describes the enum factmemory.v1.HistoryAction.
 */
export declare const HistoryActionSchema: GenEnum<HistoryAction>;
/**
 * What an entity of ListEntities is: a person, or a community's shared subject.
 *
 * @generated from enum factmemory.v1.EntityKind
 */
export declare enum EntityKind {
    /**
     * @generated from enum value: ENTITY_KIND_UNSPECIFIED = 0;
     */
    UNSPECIFIED = 0,
    /**
     * @generated from enum value: ENTITY_KIND_PERSON = 1;
     */
    PERSON = 1,
    /**
     * A world's shared facts.
     *
     * @generated from enum value: ENTITY_KIND_WORLD = 2;
     */
    WORLD = 2,
    /**
     * The agent's shared facts of every world.
     *
     * @generated from enum value: ENTITY_KIND_AGENT_WIDE = 3;
     */
    AGENT_WIDE = 3,
    /**
     * A world's claims held for review (shown to nobody).
     *
     * @generated from enum value: ENTITY_KIND_HELD = 4;
     */
    HELD = 4
}
/**
 * Describes the enum factmemory.v1.EntityKind.
 */
export declare const EntityKindSchema: GenEnum<EntityKind>;
/**
 * Long-term memory about people for AI agents.
 * Every RPC is scoped by (agent_id, entity_id); ids are UUIDs in canonical text form.
 *
 * @generated from service factmemory.v1.FactMemoryService
 */
export declare const FactMemoryService: GenService<{
    /**
     * Post-turn evaluator: extracts and reconciles facts with one LLM call. Idempotent per (agent_id, message.id).
     *
     * @generated from rpc factmemory.v1.FactMemoryService.Evaluate
     */
    evaluate: {
        methodKind: "unary";
        input: typeof EvaluateRequestSchema;
        output: typeof EvaluateResponseSchema;
    };
    /**
     * Post-turn evaluator for several messages of one person with one LLM call (batched evaluation).
     * Idempotent per (agent_id, message id): each message is applied exactly once, and a repeat of the batch
     * or of any message in it (here or through Evaluate) returns that message's stored result.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.EvaluateBatch
     */
    evaluateBatch: {
        methodKind: "unary";
        input: typeof EvaluateBatchRequestSchema;
        output: typeof EvaluateBatchResponseSchema;
    };
    /**
     * Per-turn facts provider: the two-section facts block for the agent's prompt.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.Provide
     */
    provide: {
        methodKind: "unary";
        input: typeof ProvideRequestSchema;
        output: typeof ProvideResponseSchema;
    };
    /**
     * Pages through one entity's facts, optionally filtered by kind.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ListFacts
     */
    listFacts: {
        methodKind: "unary";
        input: typeof ListFactsRequestSchema;
        output: typeof ListFactsResponseSchema;
    };
    /**
     * Pending review items (contradictions and conflicting near-duplicates) of one entity.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ListCandidates
     */
    listCandidates: {
        methodKind: "unary";
        input: typeof ListCandidatesRequestSchema;
        output: typeof ListCandidatesResponseSchema;
    };
    /**
     * Accepts or rejects one pending candidate.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ResolveCandidate
     */
    resolveCandidate: {
        methodKind: "unary";
        input: typeof ResolveCandidateRequestSchema;
        output: typeof ResolveCandidateResponseSchema;
    };
    /**
     * Erases everything stored about one entity of one agent.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ForgetEntity
     */
    forgetEntity: {
        methodKind: "unary";
        input: typeof ForgetEntityRequestSchema;
        output: typeof ForgetEntityResponseSchema;
    };
    /**
     * Returns everything stored about one entity of one agent as a JSON document.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ExportEntity
     */
    exportEntity: {
        methodKind: "unary";
        input: typeof ExportEntityRequestSchema;
        output: typeof ExportEntityResponseSchema;
    };
    /**
     * Adds a fact stated by a person (verification confirmed). The reviewer is named by the
     * `x-factmemory-reviewer` request metadata in the fact's history.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.AddFact
     */
    addFact: {
        methodKind: "unary";
        input: typeof AddFactRequestSchema;
        output: typeof AddFactResponseSchema;
    };
    /**
     * Changes a fact's claim, category, kind, confidence or verification; a new claim is re-embedded.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.UpdateFact
     */
    updateFact: {
        methodKind: "unary";
        input: typeof UpdateFactRequestSchema;
        output: typeof UpdateFactResponseSchema;
    };
    /**
     * Deletes one fact; its history stays until the entity is forgotten.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.DeleteFact
     */
    deleteFact: {
        methodKind: "unary";
        input: typeof DeleteFactRequestSchema;
        output: typeof DeleteFactResponseSchema;
    };
    /**
     * One fact with the history of every change to it, oldest first (the history alone once it is deleted).
     *
     * @generated from rpc factmemory.v1.FactMemoryService.GetFact
     */
    getFact: {
        methodKind: "unary";
        input: typeof GetFactRequestSchema;
        output: typeof GetFactResponseSchema;
    };
    /**
     * An agent's entities with their counts and last activity, most recent first.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ListEntities
     */
    listEntities: {
        methodKind: "unary";
        input: typeof ListEntitiesRequestSchema;
        output: typeof ListEntitiesResponseSchema;
    };
    /**
     * Agent-model mode, step 1 ("bring your own model"): composes the one extraction call of a message or a batch
     * exactly as Evaluate / EvaluateBatch would (prompt and JSON schema) and keeps what the model is shown under a
     * short-lived, single-use ticket bound to the agent, the entity and the messages. When every message was
     * evaluated before, no ticket is issued and the stored results are returned instead.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.PrepareEvaluation
     */
    prepareEvaluation: {
        methodKind: "unary";
        input: typeof PrepareEvaluationRequestSchema;
        output: typeof PrepareEvaluationResponseSchema;
    };
    /**
     * Agent-model mode, step 2: applies the caller's model reply for a ticket exactly as Evaluate applies the reply
     * of its own call (same validation, handle confinement and per-message idempotency).
     * Refusals (nothing applied): INVALID_ARGUMENT for a malformed ticket, a ticket of another entity, or a reply
     * that breaks the contract (the ticket stays open for a corrected reply); NOT_FOUND for a ticket unknown to this
     * agent (forged, evicted, another agent's); FAILED_PRECONDITION for a ticket already used, expired, or issued
     * before a ForgetEntity of its entity; ABORTED when another call evaluated some of its messages meanwhile
     * (prepare again). A write that landed between the two steps is planned against, as Evaluate does.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.CompleteEvaluation
     */
    completeEvaluation: {
        methodKind: "unary";
        input: typeof CompleteEvaluationRequestSchema;
        output: typeof CompleteEvaluationResponseSchema;
    };
    /**
     * Deleted messages leave the memory: they are removed from every fact's evidence, a fact left without evidence
     * is deleted, review items they raised are closed, and the message ids are never learned again. Idempotent.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ForgetMessages
     */
    forgetMessages: {
        methodKind: "unary";
        input: typeof ForgetMessagesRequestSchema;
        output: typeof ForgetMessagesResponseSchema;
    };
    /**
     * Records the agent's display name (its character's name); repeated calls update it.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.RegisterAgent
     */
    registerAgent: {
        methodKind: "unary";
        input: typeof RegisterAgentRequestSchema;
        output: typeof RegisterAgentResponseSchema;
    };
    /**
     * The agents this service holds memory for, with their names and counts.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.ListAgents
     */
    listAgents: {
        methodKind: "unary";
        input: typeof ListAgentsRequestSchema;
        output: typeof ListAgentsResponseSchema;
    };
    /**
     * The service's request limits (its FACTMEMORY_MAX_* settings as configured), so that a client cuts what it
     * sends to fit instead of copying them: a request beyond any of them is INVALID_ARGUMENT. Reads no storage.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.GetLimits
     */
    getLimits: {
        methodKind: "unary";
        input: typeof GetLimitsRequestSchema;
        output: typeof GetLimitsResponseSchema;
    };
    /**
     * A person's own facts that a text names, for their requests in a conversation ("what do you know about my job?",
     * "forget that I'm vegetarian"): ranked as Provide ranks a turn's facts, split into those that share a word with
     * the text (the words of the request itself aside) and those only near it. Only this entity's facts; reads only.
     *
     * @generated from rpc factmemory.v1.FactMemoryService.FindFacts
     */
    findFacts: {
        methodKind: "unary";
        input: typeof FindFactsRequestSchema;
        output: typeof FindFactsResponseSchema;
    };
}>;
