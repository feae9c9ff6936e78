// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}

/// @title SandboxPunks
/// @notice A small ERC-721 collection with on-chain metadata: tokenURI answers a base64 JSON data URI whose image
///         is a generated SVG face, so wallets and the kit can render items with no network at all.
contract SandboxPunks {
    string public constant name = "Sandbox Punks";
    string public constant symbol = "SPUNK";
    /// @notice The deployer; the only account that may mint.
    address public immutable owner;
    /// @notice Items minted so far; token ids run from 1 to totalSupply.
    uint256 public totalSupply;

    mapping(uint256 => address) private _owners;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    constructor() {
        owner = msg.sender;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 // ERC-165
            || interfaceId == 0x80ac58cd // ERC-721
            || interfaceId == 0x5b5e139f; // ERC-721 metadata
    }

    function ownerOf(uint256 tokenId) public view returns (address holder) {
        holder = _owners[tokenId];
        require(holder != address(0), "ERC721: token does not exist");
    }

    function mint(address to) external returns (uint256 tokenId) {
        require(msg.sender == owner, "ERC721: only the owner mints");
        require(to != address(0), "ERC721: mint to the zero address");
        tokenId = ++totalSupply;
        _owners[tokenId] = to;
        balanceOf[to] += 1;
        emit Transfer(address(0), to, tokenId);
    }

    function approve(address spender, uint256 tokenId) external {
        address holder = ownerOf(tokenId);
        require(msg.sender == holder || isApprovedForAll[holder][msg.sender], "ERC721: not allowed to approve");
        getApproved[tokenId] = spender;
        emit Approval(holder, spender, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(from == ownerOf(tokenId), "ERC721: from is not the owner");
        require(to != address(0), "ERC721: transfer to the zero address");
        require(
            msg.sender == from || isApprovedForAll[from][msg.sender] || msg.sender == getApproved[tokenId],
            "ERC721: caller is not owner nor approved"
        );
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        _owners[tokenId] = to;
        delete getApproved[tokenId];
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            bytes4 answer = IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data);
            require(answer == IERC721Receiver.onERC721Received.selector, "ERC721: recipient refused the token");
        }
    }

    /// @notice `data:application/json;base64,...` with name, description, image (SVG data URI) and attributes.
    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        bytes32 seed = keccak256(abi.encodePacked("SandboxPunks", tokenId));
        string memory background = _hexColor(bytes3(seed));
        string memory hair = _hexColor(bytes3(seed << 24));
        string[4] memory skins = ["f1c27d", "e0ac69", "c68642", "8d5524"];
        string memory skin = skins[uint8(seed[6]) % 4];

        string memory svg = string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" shape-rendering="crispEdges">',
            '<rect width="24" height="24" fill="#', background, '"/>',
            '<rect x="7" y="5" width="10" height="14" fill="#', skin, '"/>',
            '<rect x="7" y="3" width="10" height="3" fill="#', hair, '"/>',
            '<rect x="9" y="9" width="2" height="2" fill="#000"/><rect x="13" y="9" width="2" height="2" fill="#000"/>',
            '<rect x="10" y="15" width="4" height="1" fill="#000"/></svg>'
        );
        string memory json = string.concat(
            '{"name":"Sandbox Punk #', _decimal(tokenId),
            '","description":"A pixel face minted on the Walletstate sandbox chain.","image":"data:image/svg+xml;base64,',
            _base64(bytes(svg)),
            '","attributes":[{"trait_type":"Background","value":"#', background,
            '"},{"trait_type":"Hair","value":"#', hair,
            '"},{"trait_type":"Skin","value":"#', skin, '"}]}'
        );
        return string.concat("data:application/json;base64,", _base64(bytes(json)));
    }

    function _decimal(uint256 value) private pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 rest = value; rest != 0; rest /= 10) digits++;
        bytes memory out = new bytes(digits);
        for (; value != 0; value /= 10) out[--digits] = bytes1(uint8(48 + (value % 10)));
        return string(out);
    }

    function _hexColor(bytes3 color) private pure returns (string memory) {
        bytes memory digits = "0123456789abcdef";
        bytes memory out = new bytes(6);
        for (uint256 i = 0; i < 3; i++) {
            out[2 * i] = digits[uint8(color[i]) >> 4];
            out[2 * i + 1] = digits[uint8(color[i]) & 15];
        }
        return string(out);
    }

    function _base64(bytes memory data) private pure returns (string memory) {
        bytes memory alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        bytes memory out = new bytes(4 * ((data.length + 2) / 3));
        uint256 j;
        for (uint256 i = 0; i < data.length; i += 3) {
            uint256 chunk = uint256(uint8(data[i])) << 16;
            if (i + 1 < data.length) chunk |= uint256(uint8(data[i + 1])) << 8;
            if (i + 2 < data.length) chunk |= uint256(uint8(data[i + 2]));
            out[j++] = alphabet[(chunk >> 18) & 63];
            out[j++] = alphabet[(chunk >> 12) & 63];
            out[j++] = i + 1 < data.length ? alphabet[(chunk >> 6) & 63] : bytes1("=");
            out[j++] = i + 2 < data.length ? alphabet[chunk & 63] : bytes1("=");
        }
        return string(out);
    }
}
