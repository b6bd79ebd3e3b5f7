// SPDX-License-Identifier: Apache-2.0
import CPulse

extension PulseContext {
    private func collect<Item>(_ operation: String, _ completion: @escaping (Result<[Item], PulseError>) -> Void,
                               keys: [String]? = nil) -> TypedCollector<Item>
    {
        let box = TypedCollector(operation: operation, owner: self, completion)
        box.keys = keys
        return box
    }

    /// Takes a by-index answer: one item, or nil when the object no longer exists.
    private func single<Item>(_ completion: @escaping (Result<Item?, PulseError>) -> Void)
        -> (Result<[Item], PulseError>) -> Void
    {
        { result in
            switch result {
            case .success(let items): completion(.success(items.first))
            case .failure(let error) where error.isNoSuchEntity: completion(.success(nil))
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    /// The server's name, version and defaults (`pa_context_get_server_info`).
    public func serverInfo(_ completion: @escaping (Result<PulseServerInfo, PulseError>) -> Void) {
        let box = collect("get server info") { (result: Result<[PulseServerInfo], PulseError>) in
            completion(result.flatMap { items in
                items.first.map { .success($0) } ?? .failure(PulseError(code: Int32(PA_ERR_NODATA.rawValue), operation: "get server info"))
            })
        }
        box.start(pa_context_get_server_info(pointer, { _, info, userdata in
            InfoCollector.receive(userdata, 0, info.map { CConversion.server($0.pointee) })
            InfoCollector.receive(userdata, 1, nil)
        }, box.userdata))
    }

    /// Every sink (`pa_context_get_sink_info_list`).
    public func sinks(_ completion: @escaping (Result<[PulseDevice], PulseError>) -> Void) {
        let box = collect("list sinks", completion)
        box.start(pa_context_get_sink_info_list(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.device(sink: $0.pointee) })
        }, box.userdata))
    }

    /// One sink, or nil if it is gone (`pa_context_get_sink_info_by_index`).
    public func sink(_ index: UInt32, _ completion: @escaping (Result<PulseDevice?, PulseError>) -> Void) {
        let box = collect("get sink", single(completion))
        box.start(pa_context_get_sink_info_by_index(pointer, index, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.device(sink: $0.pointee) })
        }, box.userdata))
    }

    /// Every source (`pa_context_get_source_info_list`).
    public func sources(_ completion: @escaping (Result<[PulseDevice], PulseError>) -> Void) {
        let box = collect("list sources", completion)
        box.start(pa_context_get_source_info_list(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.device(source: $0.pointee) })
        }, box.userdata))
    }

    /// One source, or nil if it is gone (`pa_context_get_source_info_by_index`).
    public func source(_ index: UInt32, _ completion: @escaping (Result<PulseDevice?, PulseError>) -> Void) {
        let box = collect("get source", single(completion))
        box.start(pa_context_get_source_info_by_index(pointer, index, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.device(source: $0.pointee) })
        }, box.userdata))
    }

    /// Every sink-input (`pa_context_get_sink_input_info_list`). With `keys`, the streams carry only those
    /// properties (and no string is made for the others); the same for the other stream queries.
    public func sinkInputs(reading keys: [String]? = nil,
                           _ completion: @escaping (Result<[PulseStream], PulseError>) -> Void) {
        let box = collect("list sink-inputs", completion, keys: keys)
        box.start(pa_context_get_sink_input_info_list(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol) { keys in info.map { CConversion.stream(sinkInput: $0.pointee, keys: keys) } }
        }, box.userdata))
    }

    /// One sink-input, or nil if it is gone (`pa_context_get_sink_input_info`).
    public func sinkInput(_ index: UInt32, reading keys: [String]? = nil,
                          _ completion: @escaping (Result<PulseStream?, PulseError>) -> Void) {
        let box = collect("get sink-input", single(completion), keys: keys)
        box.start(pa_context_get_sink_input_info(pointer, index, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol) { keys in info.map { CConversion.stream(sinkInput: $0.pointee, keys: keys) } }
        }, box.userdata))
    }

    /// Every source-output (`pa_context_get_source_output_info_list`).
    public func sourceOutputs(reading keys: [String]? = nil,
                              _ completion: @escaping (Result<[PulseStream], PulseError>) -> Void) {
        let box = collect("list source-outputs", completion, keys: keys)
        box.start(pa_context_get_source_output_info_list(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol) { keys in info.map { CConversion.stream(sourceOutput: $0.pointee, keys: keys) } }
        }, box.userdata))
    }

    /// One source-output, or nil if it is gone (`pa_context_get_source_output_info`).
    public func sourceOutput(_ index: UInt32, reading keys: [String]? = nil,
                             _ completion: @escaping (Result<PulseStream?, PulseError>) -> Void) {
        let box = collect("get source-output", single(completion), keys: keys)
        box.start(pa_context_get_source_output_info(pointer, index, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol) { keys in info.map { CConversion.stream(sourceOutput: $0.pointee, keys: keys) } }
        }, box.userdata))
    }

    /// Every card (`pa_context_get_card_info_list`).
    public func cards(_ completion: @escaping (Result<[PulseCard], PulseError>) -> Void) {
        let box = collect("list cards", completion)
        box.start(pa_context_get_card_info_list(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.card($0.pointee) })
        }, box.userdata))
    }

    /// One card, or nil if it is gone (`pa_context_get_card_info_by_index`).
    public func card(_ index: UInt32, _ completion: @escaping (Result<PulseCard?, PulseError>) -> Void) {
        let box = collect("get card", single(completion))
        box.start(pa_context_get_card_info_by_index(pointer, index, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.card($0.pointee) })
        }, box.userdata))
    }

    /// Every client (`pa_context_get_client_info_list`).
    public func clients(_ completion: @escaping (Result<[PulseClientInfo], PulseError>) -> Void) {
        let box = collect("list clients", completion)
        box.start(pa_context_get_client_info_list(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.client($0.pointee) })
        }, box.userdata))
    }

    /// One client, or nil if it is gone (`pa_context_get_client_info`).
    public func client(_ index: UInt32, _ completion: @escaping (Result<PulseClientInfo?, PulseError>) -> Void) {
        let box = collect("get client", single(completion))
        box.start(pa_context_get_client_info(pointer, index, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.client($0.pointee) })
        }, box.userdata))
    }

    /// Every loaded module (`pa_context_get_module_info_list`).
    public func modules(_ completion: @escaping (Result<[PulseModule], PulseError>) -> Void) {
        let box = collect("list modules", completion)
        box.start(pa_context_get_module_info_list(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.module($0.pointee) })
        }, box.userdata))
    }

    /// The server's stream memory (`pa_ext_stream_restore_read`); fails where the server has none.
    public func restoreEntries(_ completion: @escaping (Result<[PulseRestoreEntry], PulseError>) -> Void) {
        let box = collect("read stream-restore entries", completion)
        box.start(pa_ext_stream_restore_read(pointer, { _, info, eol, userdata in
            InfoCollector.receive(userdata, eol, info.map { CConversion.restoreEntry($0.pointee) })
        }, box.userdata))
    }
}
