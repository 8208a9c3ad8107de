; Bash: functions and variables for the tags indexer (indexer/src/tags/tags-extractor.ts documents
; the captures). tree-sitter-bash ships no tags query; this one is Sextant's own. A command's name is
; a call of the function of that name when the repository declares one; most are programs.

(command_name (word) @name) @reference.call
(variable_name) @reference.read
(variable_assignment name: (variable_name) @name) @reference.write

; Declarations.
(function_definition name: (word) @name) @definition.function
(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable))

; Locals: `local` variables and positional parameters are their function's own.
(function_definition) @local.scope
((variable_name) @ignore (#match? @ignore "^([0-9]+|[@*#?$!_-])$"))
((declaration_command "local" (variable_assignment name: (variable_name) @local.definition)))
((declaration_command "local" (variable_name) @local.definition))
