; Outline patterns for the JavaScript grammar only (.js .jsx .mjs .cjs), appended after
; ../ecmascript/outline.scm. Only what does not compile under the TypeScript grammars belongs
; here: everything shared is in the ecmascript file so TypeScript gets it too.

; Class fields: the JavaScript grammar calls them field_definition with a `property` field; the
; TypeScript grammar has public_field_definition with `name` instead.
(class_body (field_definition property: (_) @name) @definition.property)
