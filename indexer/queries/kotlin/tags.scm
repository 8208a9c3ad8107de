; Tags for Kotlin (@tree-sitter-grammars/tree-sitter-kotlin 1.1.0): what declares a symbol, what
; refers to one, and the syntax resolution needs (scopes, imports, receivers, arguments, expression
; types). The capture vocabulary is the one indexer/src/jvm/tag-extractor.ts documents; the Kotlin
; resolver gives the captures their meaning.
;
; Precedence: one name node yields one entry. A definition beats a reference; between references
; the pattern that comes last wins, so generic patterns come first and refining patterns follow.
; This grammar has few fields, so patterns lean on child order and anchors.

; ---------------------------------------------------------------------------------------------
; Generic references, refined below.

(identifier) @reference.read

(user_type (identifier) @name @reference.type)

; Literals this grammar parses as identifiers, named arguments, aliases and labels.
((identifier) @ignore (#any-of? @ignore "true" "false" "null"))

(value_argument (identifier) @ignore "=")

(import (identifier) @ignore)

(package_header (qualified_identifier) @package) @ignore

; `@file:JvmName("KotlinExtensions")`: the class Java sees this file's top-level declarations in.
(file_annotation
  (constructor_invocation
    (user_type (identifier) @_annotation (#eq? @_annotation "JvmName"))
    (value_arguments (value_argument (string_literal (string_content) @facade)))))

(label) @ignore

; ---------------------------------------------------------------------------------------------
; Code scopes: where locals, parameters and local declarations are visible. Every class-like and
; function-like definition is a scope of its own as well.

[
  (block)
  (lambda_literal)
  (anonymous_function)
  (for_statement)
  (catch_block)
  (when_expression)
  (getter)
  (setter)
  (anonymous_initializer)
] @scope

; ---------------------------------------------------------------------------------------------
; Imports. Every segment of a dotted name is a reference whose receiver is the segments before it.

(import (qualified_identifier) @import.path) @import

(import (qualified_identifier) @import.path "*" @import.wildcard) @import

(import (qualified_identifier) @import.path (identifier) @import.alias) @import

(qualified_identifier . (identifier) @name @reference.qualifier)

(qualified_identifier (identifier) @receiver . (identifier) @name @reference.qualifier)

(import (qualified_identifier (identifier) @receiver . (identifier) @name @reference.import .))

; ---------------------------------------------------------------------------------------------
; Classes, objects and their members. Functions and properties inside a class are its methods and
; properties, inside a function body they are locals: the extractor tells them apart by scope.

(class_declaration name: (identifier) @name) @definition.class

(class_declaration "interface" name: (identifier) @name) @definition.interface

(class_declaration name: (identifier) @name (enum_class_body)) @definition.enum

(object_declaration name: (identifier) @name) @definition.class

; Unnamed companions are named `Companion`, as the compiler names them.
(companion_object) @definition.class

(companion_object name: (identifier) @name) @definition.class

(object_literal) @definition.class

(enum_entry . (identifier) @name) @definition.enumMember

(type_alias type: (identifier) @name (type) @type) @definition.type

(type_parameter . (identifier) @name) @definition.typeParameter

; Its upper bound (`U : BaseViewManager<T, out Node>`), the type its values' members come from.
(type_parameter (identifier) . [(user_type) (nullable_type) (function_type) (parenthesized_type)] @type) @declaration

; `where T : HasScrollState, T : ViewGroup`: more bounds, of the type parameter the declaration around declares.
(type_constraint (identifier) @constraint.name . [(user_type) (nullable_type) (function_type) (parenthesized_type)] @type) @constraint

(function_declaration name: (identifier) @name) @definition.function

(function_declaration (function_value_parameters) . (type) @type) @declaration

(function_declaration [(user_type) (nullable_type) (parenthesized_type) (function_type)] @receiver.type . name: (_)) @declaration

(secondary_constructor "constructor" @name) @definition.constructor

(primary_constructor "constructor" @name) @definition.constructor

(property_declaration (variable_declaration . (identifier) @name)) @definition.property

(property_declaration (variable_declaration (identifier) . (type) @type)) @declaration

(property_declaration [(user_type) (nullable_type) (parenthesized_type) (function_type)] @receiver.type . (variable_declaration)) @declaration

(property_declaration (variable_declaration) . (expression) @value) @declaration

(class_parameter . (identifier) @name (type) @type) @definition.parameter

(class_parameter ["val" "var"] . (identifier) @name (type) @type) @definition.property

; `@JvmName("…")`: the name Java calls the declaration by. At file level, after a comment, the
; grammar reads an annotation with arguments as an annotated expression before the declaration.
(function_declaration
  (modifiers
    (annotation
      (constructor_invocation
        (user_type (identifier) @_annotation (#eq? @_annotation "JvmName"))
        (value_arguments (value_argument (string_literal (string_content) @jvm.name))))))) @declaration

; `@get:JvmName("isReady") val ready`: the name Java calls the property's getter by.
([(property_declaration
    (modifiers
      (annotation
        (use_site_target) @_target
        (constructor_invocation
          (user_type (identifier) @_annotation)
          (value_arguments (value_argument (string_literal (string_content) @jvm.name)))))))
  (class_parameter
    (modifiers
      (annotation
        (use_site_target) @_target
        (constructor_invocation
          (user_type (identifier) @_annotation)
          (value_arguments (value_argument (string_literal (string_content) @jvm.name)))))))] @declaration
  (#match? @_target "^get")
  (#eq? @_annotation "JvmName"))

((annotated_expression
   (annotation (user_type (identifier) @_annotation (#eq? @_annotation "JvmName")))
   (parenthesized_expression (string_literal (string_content) @jvm.name)))
  .
  (function_declaration) @declaration)

(class_declaration (modifiers) @modifiers) @declaration

(object_declaration (modifiers) @modifiers) @declaration

(companion_object (modifiers) @modifiers) @declaration

(function_declaration (modifiers) @modifiers) @declaration

(property_declaration (modifiers) @modifiers) @declaration

(secondary_constructor (modifiers) @modifiers) @declaration

(class_parameter (modifiers) @modifiers) @declaration

(enum_entry (modifiers) @modifiers) @declaration

(type_alias (modifiers) @modifiers) @declaration

((block_comment) @doc
  .
  [(class_declaration) (object_declaration) (companion_object) (function_declaration) (property_declaration)
   (secondary_constructor) (enum_entry) (type_alias)] @declaration)

; ---------------------------------------------------------------------------------------------
; Parameters and locals.

(parameter . (identifier) @name (type) @type) @definition.parameter

(function_value_parameters (parameter_modifiers (parameter_modifier "vararg")) @varargs . (parameter . (identifier) @name) @definition.parameter)

; A default value makes the parameter optional at call sites.
(function_value_parameters (parameter) @declaration . (expression) @value)

(lambda_parameters (variable_declaration . (identifier) @name) @definition.parameter)

(lambda_parameters (variable_declaration . (identifier) @name (type) @type) @definition.parameter)

(setter (identifier) @name @definition.parameter)

(for_statement (variable_declaration . (identifier) @name) @definition.local . (expression) @value) @iterates

(for_statement (multi_variable_declaration (variable_declaration . (identifier) @name) @definition.local))

(catch_block (identifier) @name (type) @type) @definition.parameter

(when_subject (variable_declaration . (identifier) @name) @definition.local . (expression) @value)

(property_declaration (multi_variable_declaration (variable_declaration . (identifier) @name) @definition.local))

; ---------------------------------------------------------------------------------------------
; Expressions: member access, calls (a call of a class name is a constructor call), writes.

(user_type (identifier) @receiver . (identifier) @name @reference.type)

(navigation_expression (_) @receiver . (identifier) @name) @reference.read

(navigation_expression (_) @receiver "::" (identifier) @name) @reference.methodref

(callable_reference (identifier) @name) @reference.methodref

(callable_reference (_) @receiver . (identifier) @name) @reference.methodref

(call_expression . (identifier) @name (type_arguments)? @type (value_arguments)? @arguments (annotated_lambda (lambda_literal) @argument)?) @reference.call

(call_expression
  . (navigation_expression (_) @receiver . (identifier) @name)
  (value_arguments)? @arguments
  (annotated_lambda (lambda_literal) @argument)?) @reference.call

; `visit(orders) { … }`: the grammar nests the call with arguments inside the one with the trailing lambda.
(call_expression
  . (call_expression . (identifier) @name (value_arguments) @arguments)
  (annotated_lambda (lambda_literal) @argument)) @reference.call

(call_expression
  . (call_expression . (navigation_expression (_) @receiver . (identifier) @name) (value_arguments) @arguments)
  (annotated_lambda (lambda_literal) @argument)) @reference.call

; The grammar binds a prefix operator tighter than a call: `!isReady(name)` parses as `(!isReady)(name)`
; and `!view.isShown()` as `(!view).isShown()`. The call is the operand's, as Kotlin reads it.
(call_expression
  . (unary_expression ["!" "-" "+"] argument: (identifier) @name)
  (value_arguments)? @arguments
  (annotated_lambda (lambda_literal) @argument)?) @reference.call

(navigation_expression (unary_expression ["!" "-" "+"] argument: (_) @receiver) . (identifier) @name) @reference.read

(call_expression
  . (navigation_expression (unary_expression ["!" "-" "+"] argument: (_) @receiver) . (identifier) @name)
  (value_arguments)? @arguments
  (annotated_lambda (lambda_literal) @argument)?) @reference.call

; `a to b`, `0 until n`: a call of the infix function on the left operand, the right one its argument.
(infix_expression (_) @receiver . (identifier) @name . (_) @argument) @reference.call

(assignment left: (identifier) @name @reference.write)

(assignment left: (navigation_expression (_) @receiver . (identifier) @name) @reference.write)

(unary_expression ["++" "--"] argument: (identifier) @name @reference.write)

(unary_expression argument: (identifier) @name @reference.write ["++" "--"])

(this_expression (identifier) @name @reference.type)

(super_expression (identifier) @name @reference.type)

(constructor_delegation_call ["this" "super"] @name (value_arguments) @arguments) @reference.constructor

; ---------------------------------------------------------------------------------------------
; Supertypes and annotations.

; The supertype is the user_type; a constructor call marks a superclass.
(delegation_specifier
  [(user_type (identifier) @name .)
   (user_type (identifier) @name . (type_arguments) .)] @reference.inherit)

(delegation_specifier
  [(user_type (identifier) @receiver . (identifier) @name .)
   (user_type (identifier) @receiver . (identifier) @name . (type_arguments) .)] @reference.inherit)

(delegation_specifier
  (constructor_invocation
    [(user_type (identifier) @name .)
     (user_type (identifier) @name . (type_arguments) .)] @reference.inherit
    (value_arguments) @arguments)) @superclass

(delegation_specifier
  (constructor_invocation
    [(user_type (identifier) @receiver . (identifier) @name .)
     (user_type (identifier) @receiver . (identifier) @name . (type_arguments) .)] @reference.inherit
    (value_arguments) @arguments)) @superclass

; Delegation (`: Call<T> by delegate`) implements the interface too.
(delegation_specifier
  (explicit_delegation
    [(user_type (identifier) @name .)
     (user_type (identifier) @name . (type_arguments) .)] @reference.inherit))

(delegation_specifier
  (explicit_delegation
    [(user_type (identifier) @receiver . (identifier) @name .)
     (user_type (identifier) @receiver . (identifier) @name . (type_arguments) .)] @reference.inherit))

; The grammar reads a class body after a delegate (`class A(c: C) : C by c { … }`) as a trailing
; lambda of the delegate: that lambda is the class's member scope, and the delegate is read, not called.
(class_declaration
  (delegation_specifiers
    (delegation_specifier
      (explicit_delegation
        (call_expression . (identifier) @name . (annotated_lambda (lambda_literal) @members)) @reference.read))))

(annotation
  [(user_type (identifier) @name .)
   (constructor_invocation (user_type (identifier) @name .))]) @reference.decorator

(annotation
  [(user_type (identifier) @receiver . (identifier) @name .)
   (constructor_invocation (user_type (identifier) @receiver . (identifier) @name .))]) @reference.decorator

(file_annotation
  [(user_type (identifier) @name .)
   (constructor_invocation (user_type (identifier) @name .))]) @reference.decorator

; ---------------------------------------------------------------------------------------------
; Expressions whose type needs no resolution, and wrappers that have their operand's type.

[(string_literal) (multiline_string_literal)] @literal.kotlin.String

; `"order $id"`: the grammar keeps a template's simple name inside the string's text, after a `$`.
((string_content) @_dollar . (string_content) @template (#eq? @_dollar "$"))

(character_literal) @literal.kotlin.Char

(number_literal) @literal.kotlin.Int

((number_literal) @literal.kotlin.Long (#match? @literal.kotlin.Long "[lL]$"))

(float_literal) @literal.kotlin.Double

((float_literal) @literal.kotlin.Float (#match? @literal.kotlin.Float "[fF]$"))

((identifier) @literal.kotlin.Boolean (#any-of? @literal.kotlin.Boolean "true" "false"))

((identifier) @literal.null (#eq? @literal.null "null"))

(this_expression) @this

(this_expression (identifier) @receiver) @this

(super_expression) @super

(as_expression right: (_) @type) @cast

(parenthesized_expression (_) @value) @parens

; `x!!` is x, known not null; `x ?: y` is x's type when x is typed (y is mostly a default of the
; same type, or `return`/`throw`/`continue`, which never produce a value).
(unary_expression argument: (_) @value "!!") @parens

(binary_expression left: (_) @value "?:") @parens

; A named argument (`count = 1`) is left untyped: it may stand at any position (see jvm-grammars.ts).
(value_argument . (expression) @value .) @parens

(index_expression . (expression) @value) @element

; A lambda takes the type its target gives it (a function type, a functional interface); its
; parameters are those declared in its scope, else the implicit `it`.
(lambda_literal) @lambda

; Its last statement, the value it returns (`order?.let { Total(it) }` is a Total).
(lambda_literal (_) @value .) @lambda

; A lambda its function returns takes the function's return type (`fun f(): (Order) -> Int = { it.total }`,
; `return { it.total }`, a branch of `return if (…) { { … } } else …`); a cast one, the cast's type.
(function_body (lambda_literal) @lambda @lambda.returned)

(return_expression (lambda_literal) @lambda @lambda.returned)

(return_expression (if_expression (block (lambda_literal) @lambda @lambda.returned .)))

(as_expression left: (lambda_literal) @lambda right: (_) @type)

; ---------------------------------------------------------------------------------------------
; Smart casts: after `x is T` the variable is a T in the branch the check guards, in the rest of
; an `&&`, in a `when` entry, and after `if (x !is T) return`/`throw` in the rest of the block.

(if_expression (is_expression . (identifier) @narrow.name "is" (_) @type) . (_) @narrow)

(if_expression (binary_expression (is_expression . (identifier) @narrow.name "is" (_) @type) "&&") . (_) @narrow)

(binary_expression (is_expression . (identifier) @narrow.name "is" (_) @type) "&&" (_) @narrow)

(when_expression (when_subject . (identifier) @narrow.name) (when_entry (type_test "is" (_) @type) . (_) @narrow))

(when_expression (when_entry (is_expression . (identifier) @narrow.name "is" (_) @type) . (_) @narrow))

(if_expression (is_expression . (identifier) @narrow.name "!is" (_) @type) . [(return_expression) (throw_expression)]) @narrow.after
