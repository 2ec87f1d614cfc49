function __lab_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __lab_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __lab_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __lab_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __lab_parse_tokens -S
    set -l unparsed_tokens (__lab_tokens -pc)
    switch $unparsed_tokens[1]
    case 'lab'
        __lab_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'console'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'refresh-interval=' 'serve' 'host=' 'port=' 'allow-host=+' 'allow-origin=+' 'tokens=' 'connect=' 'token=' 'as=+' 'version' 'h/help'
        case 'assignments'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'json' 'version' 'h/help'
        case 'experiments'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'json' 'connect=' 'token=' 'version' 'h/help'
        case 'explain'
            __lab_parse_subcommand 1 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'source=' 'for=+' 'connect=' 'token=' 'json' 'version' 'h/help'
        case 'force'
            __lab_parse_subcommand 2 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'source=' 'for=+' 'connect=' 'token=' 'json' 'version' 'h/help'
        case 'unforce'
            __lab_parse_subcommand 1 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'source=' 'for=+' 'connect=' 'token=' 'json' 'version' 'h/help'
        case 'reset'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'source=' 'for=+' 'connect=' 'token=' 'json' 'version' 'h/help'
        case 'update'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'json' 'version' 'h/help'
        case 'stabilize'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'undo' 'json' 'version' 'h/help'
        case 'report'
            __lab_parse_subcommand 1 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'reason=' 'json' 'version' 'h/help'
        case 'events'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'format=' 'json' 'follow' 'limit=' 'since=' 'reason=+' 'experiment=+' 'summary' 'connect=' 'token=' 'version' 'h/help'
        case 'overrides'
            __lab_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'export'
                __lab_parse_subcommand 1 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'connect=' 'token=' 'version' 'h/help'
            case 'import'
                __lab_parse_subcommand 1 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'replace' 'json' 'connect=' 'token=' 'version' 'h/help'
            end
        case 'check'
            __lab_parse_subcommand -r 1 'growthbook=' 'json' 'warnings-as-errors' 'version' 'h/help'
        case 'serve'
            __lab_parse_subcommand 0 'catalog=+' 'state=' 'growthbook=' 'client-key=' 'decryption-key=' 'attribute=+' 'allow-host=+' 'allow-origin=+' 'tokens=' 'host=' 'port=' 'verbose' 'refresh-interval=' 'version' 'h/help'
        case 'help'
            __lab_parse_subcommand -r 1 'version'
        end
    end
end

function __lab_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __lab_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __lab_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __lab_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__lab_tokens -p)
    if test -z "$(__lab_tokens -t)"
        set -l index (count (__lab_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'lab' -f
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'console' -d 'Browse experiments and force variants in a live terminal UI.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'assignments' -d 'Show the active assignments, as the app would see them.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'experiments' -d 'Show every experiment of every source, with its state on this device.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'explain' -d 'Explain, step by step, why this device gets what it gets for an experiment.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'force' -d 'Force a variant of an experiment (or Inactive to deactivate it).'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'unforce' -d 'Drop the forced variant of an experiment, so its source decides again.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'reset' -d 'Drop all forced variants (or those of one source, or one scope).'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'update' -d 'Fetch the sources again and show how each fetch went.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'stabilize' -d 'Stabilize: assignments stop changing here and new experiments are not exposed.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'report' -d 'Report that an assignment affected the user, as the app does.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'events' -d 'Show the event table; --follow keeps printing rows as any process adds them.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'overrides' -d 'Save forced variants and attributes to a file, or apply such a file.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'check' -d 'Validate catalog files, printing file:line:col diagnostics.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'serve' -d 'Serve the state file to GrowthBook SDKs and OpenFeature OFREP providers in any language.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" refresh-interval' -l 'refresh-interval' -d 'Seconds between fetches of a --growthbook URL.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" serve' -l 'serve' -d 'Also serve the state file to apps, as lab serve does (see Settings for the address).'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" host' -l 'host' -d 'With --serve: the address to listen on.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" port' -l 'port' -d 'With --serve: the port to listen on (0: any free port).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console"' -l 'allow-host' -d 'A name apps reach the server by besides its address and this machine\'s name (repeatable): a DNS name or a proxy\'s; requests naming any other Host are refused.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console"' -l 'allow-origin' -d 'A web origin whose pages may post events, such as http://qa.example:8080 (repeatable); pages of other origins may read but not write. The demo page\'s own origin always may.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" tokens' -l 'tokens' -d 'A JSON file from tester name to steering token ({"ana": "…"}): who may force, unforce, reset and import through the steering API, recorded by name. Without it only a loopback server may be steered.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console"' -l 'as' -d 'Force only for the users with this attribute, and show what they get (repeatable, or joined with commas: id=qa-phone-7,os=ios); the title bar shows it. Without it, forcing is for everyone.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab console" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments" json' -l 'json' -d 'Print one JSON document.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab assignments" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" json' -l 'json' -d 'Print one JSON document.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab experiments" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" source' -l 'source' -d 'The source of the experiment, when several have one of that name.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain"' -l 'for' -d 'Whom it is for: the users with this attribute (repeatable, or joined with commas: id=qa-phone-7,os=ios); without it, everyone.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" json' -l 'json' -d 'Print one JSON document.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab explain" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" source' -l 'source' -d 'The source of the experiment, when several have one of that name.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force"' -l 'for' -d 'Whom it is for: the users with this attribute (repeatable, or joined with commas: id=qa-phone-7,os=ios); without it, everyone.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" json' -l 'json' -d 'Print one JSON document: the message and the assignments the app now gets.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab force" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" source' -l 'source' -d 'The source of the experiment, when several have one of that name.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce"' -l 'for' -d 'Whom it is for: the users with this attribute (repeatable, or joined with commas: id=qa-phone-7,os=ios); without it, everyone.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" json' -l 'json' -d 'Print one JSON document: the message and the assignments the app now gets.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab unforce" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" source' -l 'source' -d 'Drop only the forced variants of this source.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset"' -l 'for' -d 'Whom it is for: the users with this attribute (repeatable, or joined with commas: id=qa-phone-7,os=ios); without it, everyone.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" json' -l 'json' -d 'Print one JSON document: the message and the assignments the app now gets.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab reset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update" json' -l 'json' -d 'Print one JSON document with each source\'s status.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab update" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" undo' -l 'undo' -d 'Debug: forget the stabilization, so stabilizing can be tested again.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" json' -l 'json' -d 'Print one JSON document: the message and the assignments the app now gets.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab stabilize" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" reason' -l 'reason' -d 'displayed, initiated, or any custom reason.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" json' -l 'json' -d 'Print one JSON document: whether an event was recorded, and for which assignment.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab report" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" format' -l 'format' -d 'table, json (one document), jsonl (one object per line) or csv.' -rfka 'table json jsonl csv'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" json' -l 'json' -d 'The same as --format json.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" follow' -l 'follow' -d 'Keep printing rows as they are added (json becomes jsonl).'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" limit' -l 'limit' -d 'Show at most this many of the newest matching rows.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" since' -l 'since' -d 'Only rows since a time: 2026-11-22, 2026-11-22T13:00:00Z, or ago: 30s, 10m, 2h, 7d.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events"' -l 'reason' -d 'Only rows with this reason (repeatable).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events"' -l 'experiment' -d 'Only rows of this experiment (repeatable).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" summary' -l 'summary' -d 'Exposures per experiment and variant, with the sample-ratio-mismatch check.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab events" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab overrides" -eq 1' -fa 'export' -d 'Write the forced variants and attributes as JSON (to standard output by default).'
complete -c 'lab' -n '__lab_should_offer_completions_for_positional "lab overrides" -eq 1' -fa 'import' -d 'Apply an overrides file: every forced variant is checked first, and nothing is applied if one is unknown.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" replace' -l 'replace' -d 'Drop the forced variants and attributes the file does not name.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" json' -l 'json' -d 'Print one JSON document: the message and the assignments the app now gets.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" connect' -l 'connect' -d 'Work through the lab serve at this address (http://staging.example:3100) instead of a state file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" token' -l 'token' -d 'With --connect: your steering token (default: $LAB_STEERING_TOKEN).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab overrides import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab check" growthbook' -l 'growthbook' -d 'A GrowthBook payload to check with them: a file or a features URL.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab check" json' -l 'json' -d 'Print one JSON document.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab check" warnings-as-errors' -l 'warnings-as-errors' -d 'Fail on warnings too.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab check" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve"' -l 'catalog' -d 'A local catalog file (repeatable); the demo catalog when none is given.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" state' -l 'state' -d 'The state file (default: $XDG_STATE_HOME/laboratory/default.sqlite).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" growthbook' -l 'growthbook' -d 'A GrowthBook payload: an API host (with --client-key), a features URL, or a JSON file.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" client-key' -l 'client-key' -d 'The GrowthBook client key, when --growthbook is an API host.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" decryption-key' -l 'decryption-key' -d 'The key that decrypts an encrypted GrowthBook payload (base64).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve"' -l 'attribute' -d 'An attribute of this user or device, key=value (repeatable); userId logs a user in for user-level experiments.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve"' -l 'allow-host' -d 'A name apps reach the server by besides its address and this machine\'s name (repeatable): a DNS name or a proxy\'s; requests naming any other Host are refused.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve"' -l 'allow-origin' -d 'A web origin whose pages may post events, such as http://qa.example:8080 (repeatable); pages of other origins may read but not write. The demo page\'s own origin always may.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" tokens' -l 'tokens' -d 'A JSON file from tester name to steering token ({"ana": "…"}): who may force, unforce, reset and import through the steering API, recorded by name. Without it only a loopback server may be steered.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" host' -l 'host' -d 'The address to listen on; anything but loopback is reachable from other machines.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" port' -l 'port' -d 'The port to listen on (0: any free port).' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" verbose' -l 'verbose' -d 'Print a line for every request.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" refresh-interval' -l 'refresh-interval' -d 'Seconds between fetches of a --growthbook URL.' -rfka ''
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" version' -l 'version' -d 'Show the version.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'lab' -n '__lab_should_offer_completions_for_flags_or_options "lab help" version' -l 'version' -d 'Show the version.'